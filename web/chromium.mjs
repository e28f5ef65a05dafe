// How every browser test and benchmark of the repository starts Chromium:
// Debian's /usr/bin/chromium (or $CHROMIUM), headless, without a sandbox
// or a GPU, with nothing running in the background; playwright-core gives
// each launch a fresh temporary profile. One place, so a flag added for one
// suite is added for all.

/** The browser: $CHROMIUM, else Debian's. */
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** The flags every launch passes. */
export const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--no-first-run"];

/**
 * launchOptions is what to pass to playwright-core's chromium.launch (or
 * launchPersistentContext), with extra flags after ARGS.
 * @param {string[]} [extra]
 */
export function launchOptions(extra = []) {
  return { executablePath: CHROMIUM, headless: true, args: [...ARGS, ...extra] };
}

/**
 * inFreshPage opens url in a new browser context (a new renderer, nothing
 * cached), waits until the page marks itself ready (html[data-ready=true]),
 * runs fn on the page and closes the context, whatever fn does.
 * @template T
 * @param {import("playwright-core").Browser} browser
 * @param {string} url
 * @param {(page: import("playwright-core").Page) => Promise<T>} fn
 * @param {number} [timeout] the page's default timeout, in ms
 * @returns {Promise<T>}
 */
export async function inFreshPage(browser, url, fn, timeout) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (timeout !== undefined) page.setDefaultTimeout(timeout);
    await page.goto(url);
    await page.waitForSelector("html[data-ready=true]");
    return await fn(page);
  } finally {
    await context.close();
  }
}
