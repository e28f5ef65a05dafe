package expose

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsCredential reports whether s contains something shaped like a secret.
// The module replaces every such string whole, whatever the manifest says.
//
// The rules come from the public rule sets that secret scanners maintain,
// not from examples: gitleaks v8.30.1 (config/gitleaks.toml), the
// detectors of trufflehog v3.97.0 (pkg/detectors) and Yelp detect-secrets
// v1.5.0 (the keyword, high-entropy string, private key, basic-auth, JWT
// and provider plugins). They are:
//
//   - provider keys with a documented prefix, alphabet and body length
//     (prefixRules: GitHub, GitLab, Slack, Stripe, AWS, Google, OpenAI,
//     Anthropic and about a hundred more), plus shapes without a prefix
//     (Telegram bot tokens, Discord bot tokens, Facebook app tokens, Azure
//     AD client secrets, Mailgun signing and Mailchimp keys);
//   - JWTs and JWEs, also wrapped at their dots or split by whitespace;
//     private key blocks (PEM, OpenSSH, PGP, PuTTY) and their base64 bodies
//     without the armour;
//   - URLs with a password, Bearer and Basic credentials, cookies, chat
//     webhook URLs;
//   - a value assigned to a secret-looking name ("NAME=value",
//     "NAME: value", JSON, YAML, a URL query or fragment, a path segment
//     after /token/ or /invite/) when the value looks random, or is 16 or
//     more letters and digits that are not words (namedKey); an
//     environment variable ("$DB_PASS", "%DB_PASSWORD%") is not a value;
//   - long random base64 or base62 words (an AWS secret key, a key of an
//     unknown provider), except a Subresource Integrity digest;
//   - stored password hashes in the modular crypt and PHC formats (bcrypt,
//     md5crypt, sha256crypt and sha512crypt, yescrypt, scrypt, Argon2,
//     PBKDF2, Cisco 8 and 9), Django's stored passwords and Kerberos 5
//     AS-REP and TGS hashes (passwordHashAt);
//   - a password of letters only in scrambled case under a password name
//     in JSON, YAML or a command line, not camel case or acronyms
//     (scrambledCase);
//   - a password on a command line ("-Password X", "--password X"), in a
//     .netrc entry ("machine H login U password P"), quoted in prose
//     ("the password is 'X'"), in .NET's configuration
//     (<add key="SmtpPassword" value="X"/>) or credentials
//     (NetworkCredential("user", "X")): the rule classes of Nosey Parker's
//     rules (praetorian-inc/noseyparker) the net lacked;
//   - a value given under a secret name in other configuration shapes: an
//     XML element (<password>X</password>), a name/value object ({"name":
//     "DB_PASSWORD", "value": "X"}), a call (define('DB_PASSWORD', 'X'),
//     os.getenv("API_TOKEN", "X")), curl's -u user:X, and a name and a
//     value after blanks ("api key X", as .properties files allow; a bare
//     "key" or "token" only after a secret's word, so "GPG key X" and
//     "lookup key X" pass): the shapes of the test cases of semgrep's,
//     Kingfisher's and Whispers' rules the net lacked. What stands for a
//     value is not one: a whole template ("${X}", "$(X)", "{{ x }}",
//     "%(x)s", "{password}", "<password>"), a variable named as a secret
//     or an environment variable ("$password", "$DB_PASS"), a mask, an
//     unquoted call or index ("getpass()", "vault["x"]"), the name itself
//     again ("SMTP_PASSWORD=SMTP_PASSWORD"), an empty string; and a date
//     or a number under a secret's name is no key. "$", "{" or "<" at the
//     start of or inside a value is part of it ("$ecr3tV4lue!").
//
// A prefix counts only at the start of a token: after the start of the
// string or any character that is not a letter or digit (so "key=ghp_…",
// "/invite/ghp_…" and "STRIPE_KEY=rk_live_…" are caught), and the body
// must have the provider's length and alphabet, so business slugs such
// as "sk-winter-collection-2026" pass.
//
// The string is judged as the agent will read it (normalize, fold):
// without the characters Clean removes and the other format characters;
// with C0 controls other than tab and line breaks, combining marks,
// replacement characters and every Unicode space read as a blank (so a
// no-break space after a name is a blank, and a key cut by a control is a
// key cut by a blank); with fullwidth and mathematical letters and digits
// folded to ASCII (NFKC's width and font folds), so "ｇｈｐ＿…" is caught;
// and with a token wrapped at its dots (a line break after a dot) joined,
// as is a prefixed key cut by a line break or blanks (splitBody). It is
// also judged with one layer of an encoding undone, and without its
// accents: combining marks dropped, precomposed Latin letters read as
// their ASCII letter (decodedCredential).
//
// The net is written by hand rather than with regexp: it runs over every
// string that leaves the module and regexp would add to the module's size.
// testdata/credentials holds the corpus it is measured on, with a held-out
// part; SECURITY.md gives the figures.
func IsCredential(s string) bool {
	if len(s) < 8 {
		return false
	}
	n := normalize(s)
	if len(n) < 8 {
		return false
	}
	return scan(n) || setCookieValue(n) || randomWord(n) || decodedCredential(s, n)
}

// normalize returns s as the agent will read it: folded (fold: what Clean
// removes and the other format characters dropped; controls, combining
// marks, replacement characters and Unicode spaces made blanks; fullwidth
// forms and mathematical alphanumeric symbols folded to ASCII), and with
// tokens wrapped at their dots joined (joinWrapped). It returns s itself
// when there is nothing to change.
func normalize(s string) string {
	s = fold(s)
	if strings.IndexByte(s, '\n') >= 0 {
		s = joinWrapped(s)
	}
	return s
}

// fold removes what Clean removes (invisible: DEL, C1 controls, default
// ignorable code points) and the other format characters (category Cf);
// reads as a blank the C0 controls other than tab and line breaks (cutter),
// combining marks, replacement characters (any of them can cut a key in
// two, `ghp_…\u000b…`, or part it from the word before, and the net joins
// a key cut by blanks), the braille blank, the object replacement
// character and private-use characters, and every Unicode space, line and paragraph
// separator (a no-break space between a name and its value); and folds
// fullwidth forms (U+FF01–U+FF5E) and the mathematical alphanumeric
// symbols to ASCII. It returns s itself when nothing changes.
func fold(s string) string {
	i := 0
	for i < len(s) && s[i] < 0x7f && !cutter(s[i]) {
		i++
	}
	j := -1 // the first rune that changes (or an invalid byte)
	for k, r := range s[i:] {
		if out, drop := foldRune(r); drop || out != r || r == utf8.RuneError {
			j = i + k
			break
		}
	}
	if j < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:j])
	for _, r := range s[j:] {
		if out, drop := foldRune(r); !drop {
			b.WriteRune(out)
		}
	}
	return b.String()
}

// foldRune is what fold makes of one rune: dropped, or folded to ASCII, or
// kept as it is.
func foldRune(r rune) (out rune, drop bool) {
	switch {
	case r < 0x7f:
		if cutter(byte(r)) {
			return ' ', false
		}
		return r, false
	case plainLetter(r):
		return r, false
	case invisible(r) || unicode.Is(unicode.Cf, r):
		return 0, true
	case r == utf8.RuneError || unicode.Is(unicode.M, r) || r == 0x2800 || r == 0xfffc || unicode.Is(unicode.Co, r):
		// Also the braille blank and the object replacement character,
		// which render as a blank or a box, and private-use characters,
		// which render as whatever a font gives them.
		return ' ', false
	case r >= 0xff01 && r <= 0xff5e:
		return r - 0xfee0, false
	case unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp):
		return ' ', false
	case r >= 0x1d400 && r <= 0x1d6a3:
		if k := (r - 0x1d400) % 52; k < 26 {
			return 'A' + k, false
		} else {
			return 'a' + k - 26, false
		}
	case r >= 0x1d7ce && r <= 0x1d7ff:
		return '0' + (r-0x1d7ce)%10, false
	}
	return r, false
}

// plainLetter reports whether r is a Latin or Cyrillic letter, a CJK
// ideograph or a Hangul syllable: most of a text that is not ASCII, and
// no mark, format character or space among them, so foldRune keeps them
// without a table lookup (TestPlainLettersFoldToThemselves).
func plainLetter(r rune) bool {
	return r >= 0xc0 && r <= 0x24f || r >= 0x400 && r <= 0x482 || r >= 0x48a && r <= 0x52f ||
		r >= 0x4e00 && r <= 0x9fff || r >= 0xac00 && r <= 0xd7a3
}

// cutter reports whether ASCII byte c is a C0 control other than tab, line
// feed and carriage return: fold reads those as a blank.
func cutter(c byte) bool {
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r'
}

// joinWrapped removes the line breaks (and the indentation after them)
// that follow a dot inside a token, so that a key wrapped at its dots
// ("hooks.\nslack.\ncom/…", "SG.\n…") reads as one.
func joinWrapped(s string) string {
	var b []byte
	last := 0
	for i := 1; i < len(s); i++ {
		if s[i] != '\n' && !(s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n') || s[i-1] != '.' || i < 2 || !keyByte(s[i-2]) {
			continue
		}
		j := i
		for j < len(s) && (s[j] == '\r' || s[j] == '\n' || s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j == len(s) || !keyByte(s[j]) {
			continue
		}
		b = append(b, s[last:i]...)
		last = j
		i = j
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// Byte classes, looked up in one table.
const (
	cLower = 1 << iota
	cUpper
	cDigit
	cHexLetter
	cKeySym // "_" and "-"
	cB64Sym // "+" and "/"
)

var classes = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = cLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = cUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = cDigit
	}
	for _, c := range "abcdefABCDEF" {
		t[c] |= cHexLetter
	}
	t['_'], t['-'] = cKeySym, cKeySym
	t['+'], t['/'] = cB64Sym, cB64Sym
	return t
}()

func isAlnum(c byte) bool { return classes[c]&(cLower|cUpper|cDigit) != 0 }

func isHex(c byte) bool { return classes[c]&(cDigit|cHexLetter) != 0 }

func isDigit(c byte) bool { return classes[c]&cDigit != 0 }

func isUpper(c byte) bool { return classes[c]&cUpper != 0 }

func isLower(c byte) bool { return classes[c]&cLower != 0 }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// wordByte reports whether c can be part of a key: the base64, base64url
// and key alphabets.
func wordByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.' || c == '+' || c == '/' || c == '='
}

func keyByte(c byte) bool { return classes[c]&(cLower|cUpper|cDigit|cKeySym) != 0 }

func base64Byte(c byte) bool { return classes[c]&(cLower|cUpper|cDigit|cB64Sym) != 0 }

// The alphabets of key bodies.
const (
	setAlnum   uint8 = iota // [A-Za-z0-9]
	setHex                  // [0-9a-fA-F]
	setHexDash              // [0-9a-fA-F-]
	setKey                  // [A-Za-z0-9_-]
	setKeyDot               // [A-Za-z0-9_.=-]
	setB64                  // [A-Za-z0-9+/=]
	setUpper                // [A-Z0-9]
	setAlpha                // [A-Za-z]
	setWord                 // [A-Za-z0-9_]
)

func inSet(set uint8, c byte) bool {
	switch set {
	case setAlnum:
		return isAlnum(c)
	case setHex:
		return isHex(c)
	case setHexDash:
		return isHex(c) || c == '-'
	case setKey:
		return keyByte(c)
	case setKeyDot:
		return keyByte(c) || c == '.' || c == '='
	case setB64:
		return base64Byte(c) || c == '='
	case setUpper:
		return isUpper(c) || isDigit(c)
	case setAlpha:
		return isUpper(c) || isLower(c)
	case setWord:
		return isAlnum(c) || c == '_'
	}
	return false
}

// maxBody bounds how far a key body is read: every rule is decided within
// it, and it keeps the scan linear on adversarial input.
const maxBody = 256

// A prefixRule is a provider key: a fixed prefix (case-sensitive), then a
// body of min to max characters of the set (max 0: no upper bound). Every
// body must be varied (not a placeholder such as "xxxx…"); digit rules also
// need a digit, and random rules a body that looks random (looksRandom),
// for prefixes short or common enough to start ordinary words.
type prefixRule struct {
	prefix   string
	set      uint8
	min, max uint8
	check    uint8
}

const (
	checkVaried = iota
	checkDigit
	checkRandom
	checkMixed     // both upper and lower case letters
	checkTailscale // tailscaleKey
	checkOnfido    // onfidoToken
	checkSk        // skKey
	checkPk        // pkKey
)

// prefixRules follow the rule sets cited on IsCredential; lengths are the
// documented ones, relaxed downwards where providers changed formats.
var prefixRules = []prefixRule{
	// GitHub
	{"ghp_", setAlnum, 36, 0, checkVaried}, {"gho_", setAlnum, 36, 0, checkVaried},
	{"ghu_", setAlnum, 36, 0, checkVaried}, {"ghs_", setAlnum, 36, 0, checkVaried},
	{"ghr_", setAlnum, 36, 0, checkVaried}, {"github_pat_", setWord, 50, 0, checkVaried},
	// GitLab
	{"glpat-", setKeyDot, 20, 0, checkVaried}, {"gldt-", setKey, 20, 0, checkVaried},
	{"glrt-", setKeyDot, 20, 0, checkVaried}, {"glptt-", setHex, 40, 0, checkVaried},
	{"glft-", setKey, 20, 0, checkVaried}, {"gloas-", setKey, 64, 0, checkVaried},
	{"glsoat-", setKey, 20, 0, checkVaried}, {"glffct-", setKey, 20, 0, checkVaried},
	{"glcbt-", setKey, 20, 0, checkVaried}, {"glimt-", setKey, 25, 0, checkVaried},
	{"glagent-", setKey, 50, 0, checkVaried}, {"glwt-", setKey, 20, 0, checkVaried},
	{"GR1348941", setKey, 20, 0, checkVaried},
	// Slack
	{"xoxb-", setKeyDot, 20, 0, checkDigit}, {"xoxp-", setKeyDot, 20, 0, checkDigit},
	{"xoxa-", setKeyDot, 10, 0, checkDigit}, {"xoxr-", setKeyDot, 10, 0, checkDigit},
	{"xoxs-", setKeyDot, 20, 0, checkDigit}, {"xoxo-", setKeyDot, 20, 0, checkDigit},
	{"xoxe-", setKeyDot, 20, 0, checkDigit}, {"xoxe.", setKeyDot, 20, 0, checkDigit},
	{"xapp-", setKeyDot, 20, 0, checkDigit},
	// Stripe
	{"sk_live_", setAlnum, 16, 0, checkDigit}, {"sk_test_", setAlnum, 16, 0, checkDigit},
	{"sk_prod_", setAlnum, 16, 0, checkDigit}, {"rk_live_", setAlnum, 16, 0, checkDigit},
	{"rk_test_", setAlnum, 16, 0, checkDigit}, {"rk_prod_", setAlnum, 16, 0, checkDigit},
	{"pk_live_", setAlnum, 16, 0, checkDigit}, {"pk_test_", setAlnum, 16, 0, checkDigit},
	{"whsec_", setAlnum, 24, 0, checkDigit},
	// AWS: access key ids, session tokens, Bedrock keys
	{"AKIA", setUpper, 16, 16, checkVaried}, {"ASIA", setUpper, 16, 16, checkVaried},
	{"ABIA", setUpper, 16, 16, checkVaried}, {"ACCA", setUpper, 16, 16, checkVaried},
	{"AROA", setUpper, 16, 16, checkVaried}, {"AIDA", setUpper, 16, 16, checkVaried},
	{"IQoJb3JpZ2lu", setB64, 100, 0, checkVaried}, {"FwoGZXIvYXdz", setB64, 100, 0, checkVaried},
	{"ABSK", setB64, 100, 0, checkDigit},
	// Google
	{"AIza", setKey, 35, 0, checkVaried}, {"1//0", setKey, 30, 0, checkVaried},
	{"ya29.", setKeyDot, 30, 0, checkVaried}, {"GOCSPX-", setKey, 24, 0, checkVaried},
	// OpenAI, Anthropic and other model providers
	{"sk-proj-", setKey, 40, 0, checkRandom}, {"sk-svcacct-", setKey, 40, 0, checkRandom},
	{"sk-admin-", setKey, 40, 0, checkRandom}, {"sk-ant-", setKey, 80, 0, checkVaried},
	{"sk-", setAlnum, 32, 0, checkRandom}, {"pplx-", setAlnum, 40, 0, checkVaried},
	{"gsk_", setAlnum, 48, 0, checkVaried}, {"xai-", setWord, 70, 0, checkVaried},
	{"r8_", setKey, 37, 0, checkRandom}, {"hf_", setAlpha, 34, 0, checkMixed},
	{"api_org_", setAlpha, 34, 0, checkMixed}, {"lsv2_pt_", setWord, 40, 0, checkVaried},
	{"lsv2_sk_", setWord, 40, 0, checkVaried},
	// Notion, HashiCorp, Mapbox, package registries
	{"secret_", setAlnum, 40, 0, checkRandom}, {"ntn_", setAlnum, 40, 0, checkVaried},
	{"hvs.", setKey, 24, 0, checkVaried}, {"hvb.", setKey, 100, 0, checkVaried},
	{"hvr.", setKey, 24, 0, checkVaried},
	{"sk.eyJ", setKeyDot, 60, 0, checkVaried}, {"pk.eyJ", setKeyDot, 60, 0, checkVaried},
	{"tk.eyJ", setKeyDot, 60, 0, checkVaried},
	{"npm_", setAlnum, 36, 0, checkVaried}, {"pypi-AgE", setKey, 50, 0, checkVaried},
	{"rubygems_", setHex, 48, 0, checkVaried}, {"CLOJARS_", setAlnum, 60, 0, checkVaried},
	{"oy2", setAlnum, 43, 43, checkDigit},
	// Twilio, SendGrid, Mailgun, Brevo
	{"SK", setHex, 32, 32, checkVaried}, {"SG.", setKeyDot, 60, 0, checkVaried},
	{"key-", setHex, 32, 0, checkVaried}, {"xkeysib-", setKey, 70, 0, checkVaried},
	{"xsmtpsib-", setKey, 70, 0, checkVaried},
	// Shopify, Atlassian, DigitalOcean, Heroku, Doppler, Linear, Postman, HubSpot
	{"shpat_", setHex, 32, 0, checkVaried}, {"shpss_", setHex, 32, 0, checkVaried},
	{"shpca_", setHex, 32, 0, checkVaried}, {"shppa_", setHex, 32, 0, checkVaried},
	{"ATATT3", setKeyDot, 100, 0, checkVaried}, {"ATCTT3", setKeyDot, 100, 0, checkVaried},
	{"ATBB", setAlnum, 32, 0, checkRandom},
	{"dop_v1_", setHex, 64, 0, checkVaried}, {"doo_v1_", setHex, 64, 0, checkVaried},
	{"dor_v1_", setHex, 64, 0, checkVaried}, {"HRKU-", setKey, 50, 0, checkVaried},
	{"dp.", setKeyDot, 43, 0, checkDigit}, {"lin_api_", setAlnum, 40, 0, checkVaried},
	{"lin_oauth_", setHex, 64, 0, checkVaried}, {"PMAK-", setHexDash, 59, 0, checkVaried},
	{"pat-na1-", setHexDash, 36, 36, checkVaried}, {"pat-eu1-", setHexDash, 36, 36, checkVaried},
	{"pat-", setKey, 40, 0, checkRandom},
	// Data, observability, infrastructure
	{"dapi", setHexDash, 32, 0, checkRandom}, {"AGE-SECRET-KEY-1", setUpper, 58, 0, checkVaried},
	{"pul-", setHex, 40, 0, checkVaried}, {"glc_", setB64, 32, 0, checkVaried},
	{"glsa_", setWord, 40, 0, checkVaried}, {"eyJrIjoi", setB64, 60, 0, checkVaried},
	{"sntryu_", setHex, 64, 0, checkVaried}, {"sntrys_", setB64, 60, 0, checkVaried},
	{"EAAA", setKey, 22, 0, checkDigit}, {"EAA", setAlnum, 60, 0, checkDigit},
	{"sq0atp-", setKey, 22, 0, checkVaried}, {"sq0csp-", setKey, 40, 0, checkVaried},
	{"NRAK-", setAlnum, 27, 0, checkVaried}, {"NRJS-", setHex, 19, 0, checkVaried},
	{"NRII-", setKey, 25, 0, checkVaried}, {"NRIQ-", setKey, 25, 0, checkVaried},
	{"NRBR-", setHex, 19, 19, checkVaried}, {"dt0c01.", setKeyDot, 80, 0, checkVaried},
	{"fo1_", setKey, 43, 0, checkVaried}, {"fm1a_", setB64, 100, 0, checkVaried},
	{"fm1r_", setB64, 100, 0, checkVaried}, {"fm2_", setB64, 100, 0, checkVaried},
	{"pscale_tkn_", setKeyDot, 32, 0, checkVaried}, {"pscale_pw_", setKeyDot, 32, 0, checkVaried},
	{"pscale_oauth_", setKeyDot, 32, 0, checkVaried}, {"pnu_", setAlnum, 36, 0, checkVaried},
	{"v1.0-", setHexDash, 150, 0, checkVaried}, {"sha256~", setKey, 43, 0, checkVaried},
	{"sgp_", setWord, 40, 0, checkVaried}, {"API-", setUpper, 26, 34, checkDigit},
	{"4b1d", setAlnum, 38, 38, checkRandom}, {"AKCp", setAlnum, 69, 0, checkVaried},
	{"cmVmd", setAlnum, 59, 0, checkRandom}, {"ops_eyJ", setB64, 100, 0, checkVaried},
	{"A3-", setKey, 33, 0, checkDigit}, {"LTAI", setAlnum, 20, 0, checkRandom},
	{"s-s4t2ud-", setHex, 64, 0, checkVaried}, {"s-s4t2af-", setHex, 64, 0, checkVaried},
	{"dnkey-", setKeyDot, 70, 0, checkVaried},
	// Commerce, travel, content and other SaaS
	{"shippo_live_", setHex, 40, 0, checkVaried}, {"shippo_test_", setHex, 40, 0, checkVaried},
	{"EZAK", setAlnum, 54, 0, checkVaried}, {"EZTK", setAlnum, 54, 0, checkVaried},
	{"duffel_live_", setKeyDot, 43, 0, checkVaried}, {"duffel_test_", setKeyDot, 43, 0, checkVaried},
	{"fio-u-", setKeyDot, 64, 0, checkVaried}, {"tfp_", setKeyDot, 44, 0, checkVaried},
	{"rdme_", setAlnum, 70, 0, checkVaried}, {"tk-us-", setKey, 48, 0, checkVaried},
	{"ico-", setAlnum, 32, 0, checkVaried}, {"p8e-", setAlnum, 32, 0, checkRandom},
	{"CFPAT-", setKeyDot, 43, 0, checkVaried}, {"FLWSECK", setKey, 12, 0, checkDigit},
	{"FLWPUBK", setKey, 32, 0, checkDigit}, {"sm_pat_", setAlnum, 16, 0, checkDigit},
	{"sm_aat_", setAlnum, 16, 0, checkDigit}, {"sm_sat_", setAlnum, 16, 0, checkDigit},
	{"access-sandbox-", setHexDash, 36, 0, checkVaried}, {"access-production-", setHexDash, 36, 0, checkVaried},
	{"access-development-", setHexDash, 36, 0, checkVaried},
	{"live_", setKeyDot, 32, 0, checkRandom}, {"test_", setKeyDot, 32, 0, checkRandom},
	{"sl.", setKeyDot, 130, 0, checkVaried}, {"AQVN", setKey, 35, 0, checkVaried},
	{"t1.", setKeyDot, 100, 0, checkVaried}, {"AAAAAAAAAAAAAAAAAAAAA", setKeyDot, 60, 0, checkVaried},
	{"pat.", setKeyDot, 60, 0, checkRandom}, {"sat.", setKeyDot, 60, 0, checkRandom},
	{"pat", setKeyDot, 79, 0, checkRandom}, // Airtable: 14 letters and digits, ".", 64 hex
	{"b_", setKeyDot, 44, 0, checkRandom},
	// From trufflehog's detectors: Voiceflow, Zoho, Langfuse, PubNub,
	// SpectralOps, trufflehog Enterprise, Bannerbear, Fleetbase, AWS
	// AppSync, the AWS key ids of the A3T series
	{"VF.DM.", setKeyDot, 41, 41, checkVaried}, {"VF.WS.", setKeyDot, 41, 41, checkVaried},
	{"VF.", setKeyDot, 41, 41, checkVaried}, {"1000.", setKeyDot, 65, 65, checkVaried},
	{"sk-lf-", setHexDash, 36, 36, checkVaried}, {"pub-c-", setKey, 36, 36, checkVaried},
	{"sub-c-", setKey, 36, 36, checkVaried}, {"spu-", setAlnum, 32, 32, checkVaried},
	{"thog-key-", setHex, 16, 16, checkVaried}, {"thog-secret-", setHex, 32, 32, checkVaried},
	{"bb_pr_", setHex, 30, 30, checkVaried}, {"bb_ma_", setHex, 30, 30, checkVaried},
	{"flb_live_", setAlnum, 20, 20, checkVaried}, {"da2-", setAlnum, 26, 26, checkVaried},
	{"A3T", setUpper, 17, 17, checkVaried},
	// Docker Hub personal access tokens
	{"dckr_pat_", setKey, 27, 27, checkVaried},
	// From Kingfisher's rules (mongodb/kingfisher, bkua_, shltm_, NF-,
	// nvapi-, ak_live_, sbp_, tskey-) and semgrep's (Onfido's api_live):
	// Buildkite, Flexport, Nightfall, NVIDIA, Pagar.me, Supabase, Tailscale,
	// Onfido, with those rules' alphabets and lengths.
	{"bkua_", setAlnum, 40, 40, checkVaried}, {"shltm_", setKey, 40, 40, checkVaried},
	{"NF-", setAlnum, 32, 32, checkDigit}, {"nvapi-", setKey, 64, 64, checkVaried},
	{"ak_live_", setAlnum, 30, 30, checkVaried}, {"sbp_", setAlnum, 40, 40, checkVaried},
	{"tskey-", setKey, 12, 0, checkTailscale}, {"api_live", setKeyDot, 45, 48, checkOnfido},
	// Shapes an outside measurement found missed when no name stood before
	// them (trufflehog's razorpay, rootly, robinhood, endorlabs and gemini
	// detectors): Razorpay, Rootly, Robinhood, Endor Labs and Gemini keys.
	// Gemini's "account-"/"master-" words also start branch, host and
	// class names, so their body must look random.
	{"rzp_live_", setAlnum, 14, 0, checkVaried}, {"rzp_test_", setAlnum, 14, 0, checkVaried},
	{"rootly_", setHex, 64, 64, checkVaried}, {"rh-api-", setHexDash, 36, 36, checkVaried},
	{"endr+", setKey, 16, 16, checkVaried},
	{"account-", setAlnum, 20, 20, checkRandom}, {"master-", setAlnum, 20, 20, checkRandom},
	// Short "sk_"/"pk_" prefixes whose bodies are one case or hex
	// (trufflehog's iexcloud, tickettailor and clickuppersonaltoken
	// detectors), taken only in those exact shapes: IEX Cloud, Ticket
	// Tailor, ClickUp.
	{"sk_", setWord, 32, 44, checkSk}, {"pk_", setWord, 32, 41, checkPk},
}

// firstRule indexes prefixRules by the first byte of the prefix.
var firstRule [256][]int

// triggers says what scan does at a byte: try the rules at a token start
// (letters and digits), the phrases that start with it, the checks that
// start at a marker ("~", "=", ":", "/", "T", ".", "$").
var triggers [256]uint8

const (
	tAlnum = 1 << iota
	tPhrase
	tMarker
	tSpaced // the last byte of a spacedNames word
)

func init() {
	firsts := make([]byte, len(prefixRules))
	for i, r := range prefixRules {
		firsts[i] = r.prefix[0]
	}
	byFirstByte(&firstRule, firsts)
	firsts = make([]byte, len(phrases))
	for i, p := range phrases {
		c := p.text[0]
		firsts[i] = c
		triggers[c] |= tPhrase
		if c >= 'a' && c <= 'z' {
			triggers[c-32] |= tPhrase
		}
	}
	byFirstByte(&firstPhrase, firsts)
	for c := 0; c < 256; c++ {
		if isAlnum(byte(c)) {
			triggers[c] |= tAlnum
		}
	}
	for _, c := range []byte("~=:/T.$> (") {
		triggers[c] |= tMarker
	}
	for _, w := range spacedNames {
		c := w[len(w)-1]
		triggers[c] |= tSpaced
		triggers[c-32] |= tSpaced
	}
}

// byFirstByte groups the indexes of firsts by their byte into index, in
// order, in one allocation: the module builds these indexes at start-up,
// where every allocation, slice growth, loop and large stack frame counts
// (BENCHMARKS.md, "Where the start-up goes").
func byFirstByte(index *[256][]int, firsts []byte) {
	var count [256]uint16
	for _, c := range firsts {
		count[c]++
	}
	all := make([]int, len(firsts))
	start := 0
	for i, c := range firsts {
		if index[c] == nil {
			// The group's place in all, on first sight of its byte.
			n := int(count[c])
			index[c] = all[start : start : start+n]
			start += n
		}
		index[c] = append(index[c], i) // within capacity: no growth
	}
}

// tokenStart reports whether a token starts at i: s[i] is a letter or digit
// and what precedes it is not (nor a %XX escape or a backslash escape, which
// hide a separator).
func tokenStart(s string, i int) bool {
	if !isAlnum(s[i]) {
		return false
	}
	if i == 0 || !isAlnum(s[i-1]) {
		return true
	}
	if i >= 3 && s[i-3] == '%' && isHex(s[i-2]) && isHex(s[i-1]) {
		return true
	}
	return i >= 2 && s[i-2] == '\\' && strings.IndexByte("nrt\"'/", s[i-1]) >= 0
}

// scan walks s once, trying the rules that start at a token, the phrases,
// the shapes found by a marker byte, and assignments at "=", ":" and "/".
func scan(s string) bool {
	hashSeen := 0 // the end of the last token passwordHashAt judged
	for i := 0; i < len(s); i++ {
		c := s[i]
		t := triggers[c]
		if t == 0 {
			continue
		}
		if t&tAlnum != 0 && (i == 0 || !isAlnum(s[i-1]) ||
			(i >= 3 && s[i-3] == '%' || i >= 2 && s[i-2] == '\\') && tokenStart(s, i)) {
			for _, ri := range firstRule[c] {
				if prefixAt(s, i, &prefixRules[ri]) {
					return true
				}
			}
			if c == 'e' && jwtAt(s, i) || c == 'M' && derAt(s, i) || c == 'b' && strings.HasPrefix(s[i:], "b3BlbnNzaC1rZXktdjE") ||
				isDigit(c) && (telegramAt(s, i) || appTokenAt(s, i)) || (c == 'M' || c == 'N' || c == 'O') && discordAt(s, i) || isHex(c) && hexShapeAt(s, i) {
				return true
			}
		}
		if t&tPhrase != 0 {
			for _, pi := range firstPhrase[lower(c)] {
				p := &phrases[pi]
				if p.word && i > 0 && isAlnum(s[i-1]) {
					continue
				}
				if len(s)-i >= len(p.text) && equalFold(s[i:i+len(p.text)], p.text) &&
					(p.at == nil && p.then(s[i+len(p.text):]) || p.at != nil && p.at(s, i, i+len(p.text))) {
					return true
				}
			}
		}
		if t&tMarker == 0 {
			continue
		}
		switch c {
		case '~':
			if i > 0 && s[i-1] == 'Q' && azureSecretAt(s, i-1) {
				return true
			}
		case '=', ':':
			if assignmentAt(s, i) || c == ':' && pairAt(s, i) {
				return true
			}
		case '>':
			if xmlElementAt(s, i) {
				return true
			}
		case ' ':
			if i >= 3 && (triggers[s[i-1]]&tSpaced != 0) && spacedAt(s, i) {
				return true
			}
		case '(':
			if callAt(s, i) {
				return true
			}
		case '/':
			if pathSecretAt(s, i) {
				return true
			}
		case 'T':
			if strings.HasPrefix(s[i:], "T3BlbkFJ") { // "OpenAI" in base64: OpenAI keys carry it
				return true
			}
		case '.':
			if strings.HasPrefix(s[i:], ".atlasv1.") && runLen(s[i+9:], func(c byte) bool { return inSet(setKeyDot, c) }) >= 60 {
				return true // Terraform Cloud token
			}
		case '$':
			if i >= hashSeen {
				found, end := passwordHashAt(s, i)
				if found {
					return true
				}
				hashSeen = end
			}
		}
	}
	return false
}

// runLen counts the bytes at the start of s that satisfy ok, up to maxBody+1.
func runLen(s string, ok func(byte) bool) int {
	n := 0
	for n < len(s) && n <= maxBody && ok(s[n]) {
		n++
	}
	return n
}

func prefixAt(s string, i int, r *prefixRule) bool {
	if len(s)-i < len(r.prefix)+int(r.min) || s[i+1] != r.prefix[1] || !strings.HasPrefix(s[i:], r.prefix) {
		return false
	}
	rest := s[i+len(r.prefix):]
	n := 0
	for n < len(rest) && n <= maxBody && inSet(r.set, rest[n]) {
		n++
	}
	// Trailing sentence punctuation is not part of the body (but an Onfido
	// token may end in "-": onfidoToken drops a final ".").
	for n > 0 && (rest[n-1] == '.' || rest[n-1] == '-') && r.set != setHexDash && r.check != checkOnfido {
		n--
	}
	body := rest[:n]
	if n < int(r.min) {
		// A key wrapped or split by a blank ("ghp_…\n…", "AKIA… …"): a
		// first part of a quarter of the body or more, then the rest.
		var ok bool
		if body, n, ok = splitBody(rest, n, r); !ok {
			return false
		}
	}
	if n < int(r.min) || r.max > 0 && n > int(r.max) {
		return false
	}
	// A fixed-length body must end at the end of the token.
	if r.max > 0 && n < len(body) && isAlnum(body[n]) {
		return false
	}
	body = body[:n]
	if !varied(body) {
		return false
	}
	switch r.check {
	case checkDigit:
		return hasDigit(body)
	case checkRandom:
		return looksRandom(body)
	case checkMixed:
		return hasUpperLower(body)
	case checkTailscale:
		return tailscaleKey(body)
	case checkOnfido:
		return onfidoToken(body)
	case checkSk:
		return skKey(body)
	case checkPk:
		return pkKey(body)
	}
	return true
}

// skKey: after "sk_", an IEX Cloud secret token (32 lower-case letters and
// digits, both, that look random: a product code of that length does not)
// or a Ticket Tailor API key (4 digits, "_", 6 digits, "_", 32 lower-case
// hex digits).
func skKey(body string) bool {
	if len(body) == 32 {
		return lowerToken(body) && looksRandom(body)
	}
	return len(body) == 44 && digits(body[:4]) && body[4] == '_' && digits(body[5:11]) && body[11] == '_' &&
		lowerToken(body[12:]) && strings.Trim(body[12:], "0123456789abcdef") == ""
}

// pkKey: after "pk_", an IEX Cloud publishable token (as skKey's) or a
// ClickUp personal token (8 digits, "_", 32 capitals and digits, both).
func pkKey(body string) bool {
	if len(body) == 32 {
		return lowerToken(body) && looksRandom(body)
	}
	return len(body) == 41 && digits(body[:8]) && body[8] == '_' && oneCaseToken(body[9:], isUpper)
}

// lowerToken: lower-case letters and digits only, holding both.
func lowerToken(s string) bool { return oneCaseToken(s, isLower) }

// oneCaseToken: letters of one case (those letter says are) and digits
// only, holding both.
func oneCaseToken(s string, letter func(byte) bool) bool {
	letters := 0
	for k := 0; k < len(s); k++ {
		switch c := s[k]; {
		case letter(c):
			letters++
		case !isDigit(c):
			return false
		}
	}
	return letters > 0 && letters < len(s)
}

// digits: one or more ASCII digits and nothing else.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// tailscaleKey: after "tskey-", a key's kind, id and secret joined by "-"
// (Kingfisher's tskey-[a-z]+-[0-9A-Za-z_]+-[0-9A-Za-z_]+: tskey-auth-,
// -api-, -client-, -scim-, -webhook-), the kind in lower-case letters, the
// secret of 8 or more characters, the id and the secret holding a digit.
// "tskey-auth-" alone or in prose is no key.
func tailscaleKey(body string) bool {
	kind, rest, ok := strings.Cut(body, "-")
	if !ok || kind == "" || strings.Trim(kind, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	id, secret, ok := strings.Cut(rest, "-")
	if !ok || id == "" || len(secret) < 8 || !hasDigit(rest) {
		return false
	}
	for k := 0; k < len(rest); k++ {
		if !isAlnum(rest[k]) && rest[k] != '_' && rest[k] != '-' {
			return false
		}
	}
	return strings.IndexByte(secret, '-') < 0
}

// onfidoToken: after "api_live", semgrep's Onfido token: maybe a region
// ("_us", "_ca"), then ".", 11 characters of [A-Za-z0-9_-], "." and 32 of
// them.
func onfidoToken(body string) bool {
	if len(body) > 3 && body[0] == '_' {
		for k := 1; k < 3; k++ {
			if !isUpper(body[k]) && !isLower(body[k]) {
				return false
			}
		}
		body = body[3:]
	}
	if len(body) == 1+11+1+32+1 && body[len(body)-1] == '.' {
		body = body[:len(body)-1] // the end of a sentence
	}
	if len(body) != 1+11+1+32 || body[0] != '.' || body[12] != '.' {
		return false
	}
	for k := 1; k < len(body); k++ {
		if k != 12 && !keyByte(body[k]) {
			return false
		}
	}
	return hasDigit(body)
}

// splitBody joins a key body that a line break or blanks (at most eight
// bytes of them, U+2028 and U+2029 included), or for a mixed-case body one
// punctuation mark among them (cutMark: "ghp_…pL:7nV…", "… · …"), cut
// after its first n bytes:
// the joined body, its length, and whether there was such a cut. Only
// bodies of letters and digits are joined (a body that may hold "_", "-"
// or "." would swallow the next identifier), only when the first part
// holds at least a quarter of the rule's shortest body and 4 bytes, and
// only when the joined body is shaped like a key (keyShaped). The whole is then
// decided as an uncut body (length, alphabet, end of token, placeholder).
func splitBody(rest string, n int, r *prefixRule) (string, int, bool) {
	if n < 4 || 4*n < int(r.min) || r.set != setAlnum && r.set != setUpper && r.set != setHex {
		return "", 0, false
	}
	gap, marked := n, false
	for gap < len(rest) && gap-n < 8 {
		if isSpace(rest[gap]) {
			gap++
		} else if strings.HasPrefix(rest[gap:], "\u2028") || strings.HasPrefix(rest[gap:], "\u2029") {
			gap += 3 // the line and paragraph separators
		} else if w := cutMark(rest[gap:]); w > 0 && !marked {
			gap, marked = gap+w, true
		} else {
			break
		}
	}
	if gap == n || gap >= len(rest) || isSpace(rest[gap]) {
		return "", 0, false // no cut, nothing after it, or more than eight bytes of blanks
	}
	m := 0
	for gap+m < len(rest) && n+m <= maxBody && inSet(r.set, rest[gap+m]) {
		m++
	}
	if m == 0 {
		return "", 0, false
	}
	// The joined body and the byte after it, for the end-of-token check.
	joined := rest[:n] + rest[gap:min(gap+m+1, len(rest))]
	if !keyShaped(joined[:n+m], r) {
		return "", 0, false
	}
	// Lists and CSV rows put a comma, a semicolon or a bar between codes of
	// capitals and digits ("ASIA2026Q1,EMEA2026Q1"): across a mark only a
	// mixed-case body, which keyShaped found random, is joined.
	if marked && !(r.set == setAlnum && hasUpperLower(joined[:n+m])) {
		return "", 0, false
	}
	return joined, n + m, true
}

// cutMark returns the length of the punctuation mark s (never empty) starts
// with that splitBody reads as a cut, or 0: ASCII ones no key body holds,
// and the middle dots and bullets lists and Japanese text put between words.
// (A switch: with the marks in a package-level slice, Chromium's _initialize
// of the module took 1.4 to 1.5 times as long, for a reason not found;
// BENCHMARKS.md, "Start-up, a day of hardening".)
func cutMark(s string) int {
	switch {
	case strings.HasPrefix(s, "\u00b7"):
		return 2
	case strings.HasPrefix(s, "\u2022"), strings.HasPrefix(s, "\u2027"), strings.HasPrefix(s, "\u30fb"):
		return 3
	}
	switch s[0] {
	case ':', ',', ';', '*', '\\', '~', '|':
		return 1
	}
	return 0
}

// keyShaped: a joined body that looks generated, not two words or a code
// run together. Mixed-case bodies must look random; bodies of one case and
// digits (AWS key ids are base32) need a digit and two letters, and their
// classes must change at least twice for a rule of one fixed length, three
// times otherwise: "ASIAPACIFIC WAREHOUSE" (no digit) and
// "API-GATEWAYPRO2024 REGIONALEDITION" (two changes, not a fixed length)
// stay text.
func keyShaped(body string, r *prefixRule) bool {
	if r.set == setAlnum && hasUpperLower(body) {
		return looksRandom(body)
	}
	m := measure(body)
	need := 3
	if r.max > 0 && r.max == r.min {
		need = 2
	}
	return m.digits > 0 && m.letters >= 2 && classChanges(body) >= need
}

// varied rejects placeholders: a body needs at least min(len/4, 8)
// different bytes.
func varied(v string) bool {
	need := len(v) / 4
	if need > 8 {
		need = 8
	}
	var seen [256]bool
	n := 0
	for i := 0; i < len(v); i++ {
		if !seen[v[i]] {
			seen[v[i]] = true
			if n++; n >= need {
				return true
			}
		}
	}
	return n >= need
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

func hasUpperLower(s string) bool {
	up, lo := false, false
	for i := 0; i < len(s); i++ {
		up = up || isUpper(s[i])
		lo = lo || isLower(s[i])
	}
	return up && lo
}

// charClass: lower, upper, digit, other.
func charClass(c byte) int {
	switch {
	case isLower(c):
		return 0
	case isUpper(c):
		return 1
	case isDigit(c):
		return 2
	}
	return 3
}

func separator(c byte) bool {
	return c == '-' || c == '_' || c == '.' || c == '/' || c == ' ' || c == '+' || c == '~'
}

func isVowel(c byte) bool {
	switch c | 0x20 {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}

// randomness summarises how random a value looks: how often the character
// class (lower, upper, digit, symbol) changes between neighbours inside a
// group (separators such as "-" start a new group and are not counted),
// the share of vowels among the letters, and what the value holds. Random
// keys change class about every second character (base62 0.62, hex 0.47,
// lower-case base32 0.30) and have few vowels (about 0.2); words, slugs and
// identifiers change class rarely and have about 0.4 vowels.
type randomness struct {
	n, letters, digits, upper, lower, other, vowels, pairs, changes int
}

func measure(v string) randomness {
	var m randomness
	m.n = len(v)
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch charClass(c) {
		case 0:
			m.lower++
			m.letters++
		case 1:
			m.upper++
			m.letters++
		case 2:
			m.digits++
		default:
			if !separator(c) {
				m.other++
			}
		}
		if isVowel(c) {
			m.vowels++
		}
		if i > 0 && !separator(c) && !separator(v[i-1]) {
			m.pairs++
			if charClass(c) != charClass(v[i-1]) {
				m.changes++
			}
		}
	}
	return m
}

func (m randomness) changeRate() float64 {
	if m.pairs == 0 {
		return 0
	}
	return float64(m.changes) / float64(m.pairs)
}

func (m randomness) vowelRate() float64 {
	if m.letters == 0 {
		return 0
	}
	return float64(m.vowels) / float64(m.letters)
}

// looksRandom reports whether v, a value of 12 or more characters, looks
// like a generated key or password rather than words, a slug or a number.
func looksRandom(v string) bool {
	if len(v) < 12 || !varied(v) {
		return false
	}
	m := measure(v)
	if m.letters == 0 || m.pairs < len(v)/2 {
		return false // a number, or mostly separators
	}
	if m.digits == 0 && m.other == 0 && (m.upper == 0 || m.lower == 0) {
		return false // letters of one case: words
	}
	cr, vr := m.changeRate(), m.vowelRate()
	if m.digits == 0 && m.other == 0 {
		return cr >= 0.45 && vr <= 0.3 // letters only: not CamelCase
	}
	if hexWord(v) {
		// Hex keys: vowels say nothing (a and e are two of six letters).
		return m.digits >= 2 && m.letters >= 2 && cr >= 0.3
	}
	return cr >= 0.3 && vr <= 0.35 || cr >= 0.45 || vr <= 0.22 && cr >= 0.2 && m.letters >= 10
}

// hexWord reports whether v is hex digits and "-" only.
func hexWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isHex(v[i]) && v[i] != '-' {
			return false
		}
	}
	return true
}

// jwtAt matches a JWT or JWE at i: a base64url header that starts "eyJ"
// ('{"'), then a dot and a second segment of at least ten characters.
// Whitespace may wrap the token anywhere, as mail and terminals do.
func jwtAt(s string, i int) bool {
	if !strings.HasPrefix(s[i:], "eyJ") {
		return false
	}
	seg, n, breaks := 0, 0, 0
	for j := i; j < len(s) && j-i <= 2*maxBody; j++ {
		c := s[j]
		switch {
		case keyByte(c):
			n++
		case c == '.':
			if n < 10 {
				return false
			}
			if seg++; seg == 2 {
				return true
			}
			n = 0
		case isSpace(c):
			// A wrapped token breaks after a long chunk, not after a word,
			// and a few times only.
			if j > i && !isSpace(s[j-1]) && s[j-1] != '.' {
				if breaks++; breaks > 6 || !jwtChunkBefore(s, j, 16) {
					return seg == 1 && n >= 10
				}
			}
		default:
			return seg == 1 && n >= 10
		}
	}
	return seg == 1 && n >= 10
}

// jwtChunkBefore reports whether the min bytes before j are key bytes.
func jwtChunkBefore(s string, j, min int) bool {
	if j < min {
		return false
	}
	for k := j - min; k < j; k++ {
		if !keyByte(s[k]) {
			return false
		}
	}
	return true
}

// derAt matches the base64 body of a DER private key or certificate
// without its armour: an ASN.1 SEQUENCE ("MI" then G, H, I or J for a one-
// to four-byte length; "MHcCAQ" for an EC key; "MC4CAQ" for Ed25519), 60
// or more base64 characters, line breaks allowed, mixed case and digits.
func derAt(s string, i int) bool {
	r := s[i:]
	if !(len(r) > 2 && r[1] == 'I' && strings.IndexByte("GHIJ", r[2]) >= 0 ||
		strings.HasPrefix(r, "MHcCAQ") || strings.HasPrefix(r, "MC4CAQ")) {
		return false
	}
	n, j := 0, 0
	var seen [4]bool
	for ; j < len(r) && n < 64; j++ {
		c := r[j]
		if base64Byte(c) {
			n++
			seen[charClass(c)] = true
		} else if c != '\n' && c != '\r' && !(c == '\\' && j+1 < len(r) && r[j+1] == 'n') && !(c == 'n' && j > 0 && r[j-1] == '\\') {
			break
		}
	}
	return n >= 60 && seen[0] && seen[1] && seen[2]
}

// telegramAt matches a Telegram bot token: 5 to 16 digits, ":" and 35 or
// more key characters.
func telegramAt(s string, i int) bool {
	n := runLen(s[i:], isDigit)
	if n < 5 || n > 16 || i+n+1 >= len(s) || s[i+n] != ':' {
		return false
	}
	r := s[i+n+1:]
	m := runLen(r, keyByte)
	return m >= 35 && varied(r[:m]) && hasUpperLower(r[:m])
}

// appTokenAt matches a Facebook app access token: the app's id (15 or 16
// digits), "|" (or "%7C" in a URL), then 27 or more base64url characters.
func appTokenAt(s string, i int) bool {
	n := runLen(s[i:], isDigit)
	if n < 15 || n > 16 {
		return false
	}
	r := s[i+n:]
	switch {
	case strings.HasPrefix(r, "|"):
		r = r[1:]
	case len(r) >= 3 && r[0] == '%' && r[1] == '7' && (r[2] == 'C' || r[2] == 'c'):
		r = r[3:]
	default:
		return false
	}
	m := runLen(r, keyByte)
	if m < 27 || !varied(r[:m]) || !looksRandom(r[:m]) {
		return false
	}
	// Not words run together, as in a "|"-separated export line.
	pairs, common := letterPairs(r[:m])
	return pairs < 4 || common*2 < pairs
}

// discordAt matches a Discord bot token: 23 to 28 key characters starting
// M, N or O, then two dot-separated segments of 6 and 27 or more.
func discordAt(s string, i int) bool {
	n := runLen(s[i:], keyByte)
	if n < 23 || n > 28 || !hasDigit(s[i:i+n]) {
		return false
	}
	j := i + n
	if j >= len(s) || s[j] != '.' {
		return false
	}
	m := runLen(s[j+1:], keyByte)
	if m < 6 || m > 7 {
		return false
	}
	j += 1 + m
	return j < len(s) && s[j] == '.' && runLen(s[j+1:], keyByte) >= 27
}

// hexShapeAt matches hex keys of a fixed layout: Mailgun signing keys
// (32-8-8 hex groups) and Mailchimp keys (32 hex, "-us" and a data
// centre number). A bare hex hash is business text and passes.
func hexShapeAt(s string, i int) bool {
	if len(s)-i < 36 || s[i+32] != '-' {
		return false
	}
	n := runLen(s[i:], isHex)
	if n != 32 {
		return false
	}
	r := s[i+32:]
	if len(r) >= 4 && r[0] == '-' && r[1] == 'u' && r[2] == 's' && isDigit(r[3]) {
		return true
	}
	return len(r) >= 18 && r[0] == '-' && runLen(r[1:], isHex) == 8 && r[9] == '-' && runLen(r[10:], isHex) == 8
}

// azureSecretAt matches an Azure AD client secret around the "Q~" at q:
// three key characters and a digit before it, 31 or more after.
func azureSecretAt(s string, q int) bool {
	if q < 4 || !isDigit(s[q-1]) {
		return false
	}
	for k := q - 4; k < q-1; k++ {
		if !(isAlnum(s[k]) || s[k] == '_' || s[k] == '~' || s[k] == '.') {
			return false
		}
	}
	return runLen(s[q+2:], func(c byte) bool { return keyByte(c) || c == '~' || c == '.' }) >= 31
}

// Assignments: a secret-looking name, "=" or ":", a value.

const (
	nameNone = iota
	namePassword
	nameSecret
)

// secretWords make a name secret-looking wherever they appear in it
// (lower case, separators removed); keyWords only at its end.
var (
	passwordWords = []string{"password", "passwd", "passphrase", "pwd", "contrasena"}
	secretWords   = []string{"secret", "token", "apikey", "accesskey", "privatekey", "accountkey",
		"credential", "signature", "auth", "session", "cookie", "jwt", "bearer", "clientkey",
		"signingkey", "masterkey", "encryptionkey", "licensekey", "sharedkey", "webhookkey"}
	nameEnds = []string{"key", "sig", "sid", "pat", "creds"}
	// Names that say secret but hold business values, wherever they appear
	// in the name.
	businessNames = []string{"pagetoken", "nexttoken", "continuationtoken", "paginationtoken", "synctoken",
		"idempotencykey", "sortkey", "cachekey", "primarykey", "foreignkey", "partitionkey", "rowkey",
		"publickey", "publishablekey", "hotkey", "tokencount", "author", "sessiondate", "sessionname",
		"sessiontitle", "secretary", "pubkey"}
	// ticketNames are names ending in "pass" that are not a password's:
	// tickets and things, matched as the whole name (BUS_PASSWORD and
	// MONGO_COMPASS_PASSWORD stay passwords).
	ticketNames = []string{"compass", "boardingpass", "seasonpass", "daypass", "weekpass", "skypass", "buspass", "railpass"}
)

// classifyName returns what kind of secret the name says its value is. The
// name is lower-cased with "_", "-", "." and spaces removed.
func classifyName(name string) int {
	var buf [64]byte
	b := buf[:0]
	letters := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if isAlnum(c) {
			b = append(b, lower(c))
			letters = letters || !isDigit(c)
		}
	}
	if len(b) < 2 || !letters {
		return nameNone
	}
	n := string(b)
	kind := nameNone
	for _, w := range passwordWords {
		if strings.Contains(n, w) {
			kind = namePassword
			break
		}
	}
	if kind == nameNone && (strings.HasSuffix(n, "pass") || strings.HasSuffix(n, "pw")) {
		kind = namePassword // before the secret words: AUTH_PASS is a password, not a token
	}
	for _, w := range secretWords {
		if kind != nameNone {
			break
		}
		if strings.Contains(n, w) {
			kind = nameSecret
		}
	}
	for _, w := range nameEnds {
		if kind != nameNone {
			break
		}
		if strings.HasSuffix(n, w) {
			kind = nameSecret
		}
	}
	if kind == nameNone || kind == namePassword && containsFold(ticketNames, n) {
		return nameNone
	}
	for _, w := range businessNames {
		if strings.Contains(n, w) {
			return nameNone
		}
	}
	return kind
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

func nameByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

func quoteByte(c byte) bool { return c == '"' || c == '\'' || c == '\\' || c == '`' }

// assignmentAt reads the name before the "=" or ":" at i and the value
// after it.
func assignmentAt(s string, i int) bool {
	// The name: back over an assignment operator's first bytes (Make's
	// "?=", PHP's ".=", "+=", "||=", "??="), blanks and quotes, then name
	// characters.
	j := i
	for j > 0 && i-j < 2 && s[i] == '=' && strings.IndexByte("?.+|", s[j-1]) >= 0 {
		j--
	}
	for k := 0; k < 4 && j > 0 && (quoteByte(s[j-1]) || s[j-1] == ' ' || (s[j-1] == ':' || s[j-1] == ']') && s[i] == '='); k++ {
		j--
	}
	j, end, ok := nameBefore(s, j)
	if !ok {
		return false
	}
	if s[i] == '=' && slices.Contains(typeWords, s[j:end]) {
		if j, end, ok = declaredName(s, j); !ok {
			return false
		}
	}
	kind := classifyName(s[j:end])
	if kind == nameNone || kind == namePassword && ticketPass(s, j, end) {
		return false
	}
	if s[i] == ':' && end == i && i+1 < len(s) && isAlnum(s[i+1]) && (s[j:end] == "session" || s[j:end] == "sessions") {
		return false // a key's namespace: Redis's and caches' "session:<id>"
	}
	// The value: past "=", ">", blanks and quotes, then up to a delimiter.
	v := i + 1
	for k := 0; k < 6 && v < len(s) && (s[v] == '=' || s[v] == '>' || s[v] == ' ' || s[v] == '\t' || quoteByte(s[v])); k++ {
		if emptyString(s[v:]) {
			return false // an empty string: password="" and the next attribute
		}
		v++
	}
	quotedValue := v > i+1 && quoteByte(s[v-1])
	w := v
	for w < len(s) && w-v <= maxBody && valueByte(s[w]) {
		// An "=" inside the value starts the next assignment; "=" at its
		// end is base64 padding.
		if s[w] == '=' && w+1 < len(s) && s[w+1] != '=' && valueByte(s[w+1]) {
			break
		}
		// So does a ":" in a "name: value" list.
		if s[w] == ':' && s[i] == ':' {
			break
		}
		w++
	}
	val := s[v:w]
	if quotedValue && w > v && w < len(s) && strings.IndexByte("&,;<>()[]{}", s[w]) >= 0 {
		// A quoted value holds brackets and the like up to its quote
		// ("p@ss[1]word"), and is judged whole as well as up to them; a
		// template, a format string or a call in quotes stands for a value.
		if q := quotedEnd(s, v, s[v-1]); q > w {
			whole := s[v:q]
			if stand(whole) || formatString(whole) || callText(whole) {
				return false
			}
			if kind == namePassword && !strings.Contains(whole, "://") && passwordValue(whole, s[i]) {
				return true
			}
		}
	}
	if reference(val) || !quotedValue && code(s, v, w) && !configValue(s, j, end, i) || sameName(val, s[j:end]) {
		return false
	}
	if kind == namePassword {
		return !strings.Contains(val, "://") && passwordValue(val, s[i])
	}
	if dateOrNumber(val) {
		return false
	}
	if v := unescapeURL(val); looksRandom(v) || namedKey(v) {
		return true
	}
	// A value in a path ends at the next "/".
	slash := strings.IndexByte(val, '/')
	return slash > 0 && looksRandom(unescapeURL(val[:slash]))
}

// typeWords are the types written between a declared name and its "="
// (assignmentAt, declaredName).
var typeWords = []string{"string", "String", "str", "text", "bytes"}

// declaredName reads the name declared before the type word at t: after
// ":" (TypeScript's "apiToken: string", Python's "api_key: str", Rust's
// "api_token: &str"), or after a declaring keyword (Go's "var apiToken
// string"). Prose with such a word ("signature text = …") declares
// nothing.
func declaredName(s string, t int) (j, end int, ok bool) {
	k := t
	if k > 0 && s[k-1] == '&' {
		k--
	}
	for k > 0 && t-k < 8 && s[k-1] == ' ' {
		k--
	}
	colon := k > 0 && s[k-1] == ':'
	if colon {
		for k--; k > 0 && t-k < 16 && s[k-1] == ' '; k-- {
		}
	}
	if k == t {
		return 0, 0, false // "xstring=": a name, not a type
	}
	if j, end, ok = nameBefore(s, k); !ok || colon {
		return j, end, ok
	}
	w := j
	for w > 0 && j-w < 4 && s[w-1] == ' ' {
		w--
	}
	if w == j {
		return 0, 0, false
	}
	kw := w
	for kw > 0 && w-kw < 6 && isLower(s[kw-1]) {
		kw--
	}
	if (kw == 0 || !nameByte(s[kw-1])) && slices.Contains(declaringWords, s[kw:w]) {
		return j, end, true
	}
	return 0, 0, false
}

// declaringWords declare a name before its type (declaredName).
var declaringWords = []string{"var", "let", "val", "const"}

// nameBefore returns the name that ends at end in s, as s[j:end], and
// whether there is one: 2 to 63 name characters.
func nameBefore(s string, end int) (j, e int, ok bool) {
	j = end
	for j > 0 && end-j < 64 && nameByte(s[j-1]) {
		j--
	}
	if end-j < 2 || end-j >= 64 && j > 0 && nameByte(s[j-1]) {
		return 0, 0, false
	}
	return j, end, true
}

// ticketPass reports whether the name s[j:end] is "pass" after a word that
// makes it a ticket ("Season pass:", "Boarding pass:"), not a password.
func ticketPass(s string, j, end int) bool {
	if !strings.EqualFold(s[j:end], "pass") || j < 2 || s[j-1] != ' ' {
		return false
	}
	w := j - 1
	for w > 0 && isAlnum(s[w-1]) && j-1-w < 16 {
		w--
	}
	return containsFold(ticketNames, strings.ToLower(s[w:j-1])+"pass")
}

// reference reports whether v, a value after a secret name, names a
// variable instead of holding a value: "$DB_PASS" or "%DB_PASSWORD%" (an
// unquoted value ends before "{", "<" or "(", so "${…}", "{{…}}" and
// "<…>" never reach here). Only names written as environment variables
// are: upper-case words of letters, each maybe ending in digits, joined by
// "_" ("DB_PASS", "PASSWORD2"), and names of variables that name a secret
// ("$password", "$db_pass", "$apiKey"); "$$" (a "$" escaped in Compose
// files and Makefiles) reads as "$". Any other lower-case or mixed-case
// name may well be a password that starts with "$" ("$ummer2024",
// "$P4SSW0RD", "$uperS3cret"), and is judged as one.
func reference(v string) bool {
	if strings.HasPrefix(v, "$$") {
		v = v[1:] // "$" escaped as "$$" (Compose files, Makefiles)
	}
	var name string
	switch {
	case len(v) < 3:
		return false
	case v[0] == '$':
		name = v[1:]
	case v[0] == '%' && v[len(v)-1] == '%':
		name = v[1 : len(v)-1]
	default:
		return false
	}
	if v[0] == '$' && identifier(name) && classifyName(name) != nameNone {
		return true // a variable named as a secret: "$password", "$db_pass", "$apiKey"
	}
	for _, word := range strings.Split(name, "_") {
		if !envWord(word) {
			return false
		}
	}
	return strings.Trim(name, "_") != ""
}

// identifier: a letter or "_", then letters, digits and "_".
func identifier(w string) bool {
	if w == "" || isDigit(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isAlnum(w[i]) && w[i] != '_' {
			return false
		}
	}
	return true
}

// quotedEnd returns where the value quoted by q and starting at v ends:
// the index of its closing quote, past printable ASCII other than quotes
// and backslashes, or -1.
func quotedEnd(s string, v int, q byte) int {
	if q != '"' && q != '\'' && q != '`' {
		return -1
	}
	for w := v; w < len(s) && w-v <= maxBody; w++ {
		switch c := s[w]; {
		case c == q:
			return w
		case c <= ' ' || c >= 0x7f || quoteByte(c):
			return -1
		}
	}
	return -1
}

// formatString reports whether v holds a format placeholder: "{}", "{0}",
// "{name}" (Python's str.format, C#'s string.Format), "%s" or "%d".
func formatString(v string) bool {
	if strings.Contains(v, "%s") || strings.Contains(v, "%d") {
		return true
	}
	for k := strings.IndexByte(v, '{'); k >= 0; {
		e := strings.IndexByte(v[k:], '}')
		if e < 0 {
			return false
		}
		in := v[k+1 : k+e]
		if in == "" || identifier(in) && (isDigit(in[0]) || strings.ToLower(in) == in) || isDigit(in[0]) && strings.Trim(in, "0123456789") == "" {
			return true
		}
		n := strings.IndexByte(v[k+e:], '{')
		if n < 0 {
			return false
		}
		k += e + n
	}
	return false
}

// callText reports whether v is a call written as text: a name or a
// dotted name, then "()" ("obj.aFunctionCall()").
func callText(v string) bool {
	if !strings.HasSuffix(v, "()") || len(v) < 3 || isDigit(v[0]) {
		return false
	}
	for k := 0; k < len(v)-2; k++ {
		if !isAlnum(v[k]) && v[k] != '_' && v[k] != '.' {
			return false
		}
	}
	return true
}

// emptyString reports whether s starts with an empty quoted string: two
// double, single or back quotes, or an escaped pair inside another string
// (\"\"). An escaped backslash ("\\") is a value, not a quote.
func emptyString(s string) bool {
	switch {
	case len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`'):
		return s[1] == s[0]
	case len(s) >= 4 && s[0] == '\\' && (s[1] == '"' || s[1] == '\''):
		return s[2] == '\\' && s[3] == s[1]
	}
	return false
}

// code reports whether the unquoted value s[v:w] is code rather than a
// value: a function called or a collection indexed ("password =
// getpass()", "password = secrets["password"]", "token =
// os.environ.get(…)"). The value must read as a name (a letter or "_",
// then letters, digits, "_" and "."), and what follows as a call's or an
// index's start: ")" or "]" at once, a quote, or a name; a value followed
// by a number or a symbol in brackets is a value ("Wint3rSky(2026)").
func code(s string, v, w int) bool {
	if w+1 >= len(s) || s[w] != '(' && s[w] != '[' || v == w || isDigit(s[v]) {
		return false
	}
	for k := v; k < w; k++ {
		if !isAlnum(s[k]) && s[k] != '_' && s[k] != '.' {
			return false
		}
	}
	c := s[w+1]
	return c == ')' || c == ']' || c == '"' || c == '\'' || c == '_' || isLower(c) || isUpper(c)
}

// configValue reports whether the assignment of the name s[j:end] at the
// "=" at i is a line of an environment file or a shell assignment
// (DB_PASSWORD=…): an upper-case name with "=" right after it, whose value
// is plain text, never a call.
func configValue(s string, j, end, i int) bool {
	if end != i || s[i] != '=' {
		return false
	}
	for k := j; k < end; k++ {
		if !isUpper(s[k]) && !isDigit(s[k]) && s[k] != '_' {
			return false
		}
	}
	return true
}

// sameName reports whether the value is its name written again, exactly:
// a placeholder ("DB_PASSWORD=DB_PASSWORD", String password =
// "password"). Another case or spelling ("password=Password") is judged as
// a value.
func sameName(v, name string) bool {
	return v != "" && v == name
}

// dateOrNumber reports whether v, a value under a secret's (not a
// password's) name, is a date, a time or a number: "tokenExpiry" and
// "secretRotatedAt" hold them, and no key is one. Digits with "-", ":",
// ".", "+", "T" and "Z" between them, at least one digit in four
// characters.
func dateOrNumber(v string) bool {
	digits := 0
	for k := 0; k < len(v); k++ {
		switch c := v[k]; {
		case isDigit(c):
			digits++
		case c == '-' || c == ':' || c == '.' || c == '+' || c == '/' || c == ' ':
		case c == 'T' || c == 'Z':
			if k == 0 {
				return false
			}
		default:
			return false
		}
	}
	return digits > 0 && 2*digits >= len(v)
}

// envWord: upper-case letters, then digits if any ("" is an empty word of
// a leading, trailing or doubled "_").
func envWord(w string) bool {
	i := 0
	for i < len(w) && isUpper(w[i]) {
		i++
	}
	if i == 0 && w != "" {
		return false
	}
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	return i == len(w)
}

// namedKey: a value after a secret name that looksRandom leaves because
// its letters happen to run together (keys of one case and digits, such as
// base36 and hex keys, change class less often than base62 ones). The name
// is half the evidence, so a value of 16 or more letters and digits,
// varied, whose letters and digits alternate often and whose letters are
// not words, is taken as a key: "API_TOKEN=feluqmr7…" is caught. Business
// values after such names are not: numbers (a tracking number, an id, a
// timestamp), codes of a few long runs ("ORD20261201000123",
// "SKU12345BLKXL2026", "1ZW4X9280396875412") and words run together
// ("token=summer2026collection").
func namedKey(v string) bool {
	if len(v) < 16 || len(v) > maxBody || !varied(v) {
		return false
	}
	m := measure(v)
	if m.letters+m.digits != m.n || m.letters == 0 {
		return false // separators or symbols (a slug, a path, a sentence), or a number
	}
	if hexWord(v) {
		// A hex key, unless its letters and digits come in three runs or
		// fewer (a number with a suffix).
		return m.digits > 0 && m.changes > 2
	}
	if m.digits > 0 && m.changes <= 3 {
		// Letters and digits in four runs or fewer: a code
		// ("SKU12345BLKXL2026", "INV2026A00012345"). A key's classes
		// alternate at about two pairs in five: a 16-character one has six
		// or seven runs, a 32-character one a dozen.
		return false
	}
	if m.digits == 0 && len(v) < 20 {
		return false
	}
	// Words: most of their letter pairs are common in English, and about
	// two letters in five are vowels. A random key's letters pair at random
	// (a quarter of the pairs are common ones) and are one in five vowels.
	pairs, common := letterPairs(v)
	return m.vowelRate() <= 0.45 && pairs >= 4 && common*2 < pairs
}

// commonPairs holds, for each letter, the letters that often follow it in
// English: the 169 most frequent letter pairs of English text (Norvig's
// counts over the Google Books corpus, "English Letter Frequency Counts:
// Mayzner Revisited"), bit b of commonPairs[a] for the pair a, b. About
// nine pairs in ten of English words are among them, a quarter of the
// pairs of random letters.
var commonPairs = [26]uint32{
	0x12eb94e, 0x1104811, 0x01a4991, 0x0104111, 0x1aeb93d, 0x0024131,
	0x0020191, 0x0004111, 0x02e787d, 0x0000000, 0x0000010, 0x1044919,
	0x000c111, 0x00c415d, 0x07ef82c, 0x0024811, 0x0100000, 0x10c7119,
	0x01cc195, 0x11e4191, 0x00e3814, 0x0000111, 0x0004191, 0x0000000,
	0x0004000, 0x0000000,
}

// letterPairs counts the pairs of neighbouring letters in v and how many of
// them are common English pairs, whatever their case.
func letterPairs(v string) (pairs, common int) {
	for i := 1; i < len(v); i++ {
		a, b := lower(v[i-1]), lower(v[i])
		if a < 'a' || a > 'z' || b < 'a' || b > 'z' {
			continue
		}
		pairs++
		if commonPairs[a-'a']>>(b-'a')&1 != 0 {
			common++
		}
	}
	return pairs, common
}

// valueByte: what can be part of an assigned value. Blanks, quotes, "&",
// ",", ";" and brackets end it.
func valueByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"'`&,;<>()[]{}\\", c) < 0
}

// unescapeURL turns each %XX escape into one symbol byte, so that an
// escaped value is measured like the value.
func unescapeURL(v string) string {
	if strings.IndexByte(v, '%') < 0 {
		return v
	}
	b := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]) {
			b = append(b, '%')
			i += 2
			continue
		}
		b = append(b, v[i])
	}
	return string(b)
}

// businessWords are values of password names that state a status.
var businessWords = []string{"reset", "required", "changed", "expired", "invalid", "hidden", "redacted",
	"masked", "none", "null", "undefined", "true", "false", "empty", "missing", "forgotten", "updated",
	"pending", "enabled", "disabled", "optional", "unknown", "default", "sent", "requested", "always", "never",
	"strict", "visible", "weak", "strong", "medium", "expir", "temporary", "locked", "unlocked", "manual", "auto",
	"policy", "rotat", "change", "forgot", "recover", "confirm", "verif", "saved", "unset", "show", "hide",
	"incorrect", "accepted", "rejected", "unchanged", "inactive"}

// businessValues are status words that are business text only as the whole
// value: as prefixes they would pass passwords ("activate2026",
// "correcthorse").
// (Words under six characters never reach it: such a value is too short.)
var businessValues = []string{"active", "correct"}

// passwordValue: after "=", any value of six or more characters except a
// status word or a slug of lower-case words; after ":" (a header, YAML or
// JSON, or prose), a value that has a digit or a symbol, or is long, so
// that "Password: please ask the admin" passes.
func passwordValue(v string, sep byte) bool {
	if len(v) < 6 {
		return false
	}
	m := measure(v)
	slug := m.upper == 0 && m.digits == 0 && m.other == 0
	if slug {
		lv := strings.ToLower(v)
		for _, w := range businessWords {
			if strings.HasPrefix(lv, w) {
				return false
			}
		}
		for _, w := range businessValues {
			if lv == w {
				return false
			}
		}
		if strings.ContainsAny(v, "-_. ") {
			return false
		}
	}
	if sep == '=' {
		return true
	}
	return len(v) >= 16 && looksRandom(v) || m.digits > 0 && m.letters > 0 || m.other > 0 || scrambledCase(v)
}

// scrambledCase reports whether v, 10 characters or more, has at least
// three upper-case letters that do not start a word of camel case (an
// upper-case letter followed by two lower-case ones), and letter pairs
// few words have (letterPairs): a password of letters only, generated,
// such as "jHkmxEsSfUQUAk", under a password name in JSON, YAML or a
// command line, where "NeedsPasswordReset", "SSOEnforced" or "UNAVAILABLE"
// are not. An outside measurement found every such password missed there,
// and caught after "=".
func scrambledCase(v string) bool {
	if len(v) < 10 {
		return false
	}
	n := 0
	for i := 0; i < len(v); i++ {
		if isUpper(v[i]) && !(i+2 < len(v) && isLower(v[i+1]) && isLower(v[i+2])) {
			n++
		}
	}
	pairs, common := letterPairs(v)
	return n >= 3 && pairs >= 4 && common*2 < pairs
}

// pathWords are path segments after which a random segment is a secret:
// invitation, reset, verification and magic links, token pages.
var pathWords = []string{"token", "tokens", "reset", "resetpassword", "passwordreset", "invite", "invites",
	"invitation", "invitations", "verify", "verification", "confirm", "confirmation", "activate", "activation",
	"magic", "magiclink", "login", "auth", "session", "sessions", "key", "keys", "apikey", "apikeys",
	"secret", "secrets", "unsubscribe", "share", "download", "webhook", "webhooks", "hooks", "callback"}

// pathSecretAt: at the "/" at i, a path word before it and a random
// segment of 16 or more characters after it.
func pathSecretAt(s string, i int) bool {
	j := i
	for j > 0 && i-j < 32 && nameByte(s[j-1]) {
		j--
	}
	if j == i || j > 0 && s[j-1] != '/' && s[j-1] != ' ' {
		return false
	}
	var buf [32]byte
	b := buf[:0]
	for k := j; k < i; k++ {
		if isAlnum(s[k]) {
			b = append(b, lower(s[k]))
		}
	}
	hit := false
	for _, w := range pathWords {
		if string(b) == w {
			hit = true
			break
		}
	}
	if !hit {
		return false
	}
	n := runLen(s[i+1:], func(c byte) bool { return keyByte(c) || c == '.' || c == '~' || c == '%' })
	return n >= 16 && looksRandom(unescapeURL(s[i+1:i+1+n]))
}

// phrases are matched case-insensitively; each returns whether what follows
// the phrase completes a secret. A phrase marked word starts a word: the
// byte before it is not a letter or digit.
var phrases = []struct {
	text string
	then func(rest string) bool
	word bool
	at   func(s string, i, j int) bool // instead of then: s, the phrase's start and end
}{
	{"-----begin", func(rest string) bool {
		end := strings.Index(rest, "-----")
		return end >= 0 && end < 100 && strings.Contains(strings.ToLower(rest[:end]), "private key")
	}, false, nil},
	{"putty-user-key-file-", func(rest string) bool { return true }, false, nil},
	{"bearer ", func(rest string) bool { return bearerToken(trimQuotes(rest)) }, false, nil},
	// The "Token" scheme of an Authorization header (Django REST
	// framework's, GitHub's legacy one), as a header line or a JSON or
	// Python member, with or without blanks: authTokenScheme.
	{"token ", nil, true, authTokenScheme},
	{"basic ", func(rest string) bool { return basicToken(trimQuotes(rest)) }, false, nil},
	{"cookie:", func(rest string) bool { return cookiePair(trimQuotes(rest)) }, false, nil},
	{"cookie=", func(rest string) bool { return cookiePair(trimQuotes(rest)) }, false, nil},
	{"://", urlPassword, false, nil},
	{"hooks.slack.com/", func(rest string) bool { return runLen(rest, wordByte) >= 30 }, false, nil},
	{"discord.com/api/webhooks/", func(rest string) bool { return runLen(rest, wordByte) >= 20 }, false, nil},
	{"discordapp.com/api/webhooks/", func(rest string) bool { return runLen(rest, wordByte) >= 20 }, false, nil},
	{".webhook.office.com/webhookb2/", func(rest string) bool { return runLen(rest, wordByte) >= 20 }, false, nil},
	{"hooks.zapier.com/hooks/catch/", func(rest string) bool {
		n := runLen(rest, func(c byte) bool { return isAlnum(c) || c == '/' })
		return n >= 16 && hasDigit(rest[:n]) // Kingfisher's [A-Za-z0-9/]{16}
	}, false, nil},
	// A command line's password option, "-Password X" (PowerShell's
	// Connect-*, New-Object … -Password) or "--password X", "-password=X".
	{"-password", passwordOption, true, nil},
	// A .netrc entry: "machine HOST login USER password PASS" (netrc(5)).
	{"machine ", netrcPassword, true, nil},
	// A password given in prose: "the password is 'Secret123'".
	{"password is ", quotedPassword, true, nil},
	// .NET configuration: <add key="SmtpPassword" value="…"/> (appSettings).
	{"key=", configEntry, false, nil},
	// .NET: new NetworkCredential("user", "password"[, "domain"]).
	{"networkcredential(", credentialArgs, true, nil},
	// curl's password options (--tlspassword, --proxy-tlspassword) and its
	// user:password (-u, --user, -U, --proxy-user; phrases match without
	// case, so "-u " finds -U too).
	{"-tlspassword", passwordOption, false, nil},
	{"-u ", nil, false, curlUser},
	{"--user ", nil, false, curlUser}, {"--user=", nil, false, curlUser},
	{"--proxy-user ", nil, false, curlUser},
}

// spacedNames are the secret names scan looks for before a blank
// (spacedValue).
var spacedNames = []string{"key", "secret", "token"}

// spacedQualifiers are the words that make a bare "key" or "token" before
// a blank a secret's name ("api key …", "access token …"); after any other
// word (a GPG key id, a Stripe price lookup key, a Redis or cache key, a
// WooCommerce order key) it names an identifier.
var spacedQualifiers = []string{"api ", "access ", "secret ", "private ", "auth ", "client ", "app ",
	"master ", "signing ", "encryption ", "bearer ", "refresh ", "session ", "service ", "account ",
	"deploy ", "personal ", "oauth ", "consumer ", "webhook ", "storage ", "admin "}

// spacedAt: at the blank at i, one of spacedNames ends before it.
func spacedAt(s string, i int) bool {
	for _, w := range spacedNames {
		if i >= len(w) && equalFold(s[i-len(w):i], w) {
			return spacedValue(s, i-len(w), i+1)
		}
	}
	return false
}

// callAt: at the "(" at i, a call whose first two arguments are a name and
// its value (callArgs). For the calls of configCalls, any name and value
// judged as after "="; for any other call (Java's
// System.setProperty("API_TOKEN", "…"), a helper's
// GetEnvOrDefault("api_token", "…")), a secret's name, not a password's,
// and a value of one word.
func callAt(s string, i int) bool {
	if i == 0 || !nameByte(s[i-1]) {
		return false
	}
	config := false
	for _, w := range configCalls {
		if i >= len(w) && equalFold(s[i-len(w):i], w) && (i == len(w) || !isAlnum(s[i-len(w)-1])) {
			config = true
			break
		}
	}
	return callArgs(s[i+1:], config)
}

// configCalls are the calls whose first two arguments are a setting's name
// and its value: PHP's define('DB_PASSWORD', '…') (wp-config.php), a
// default given to an environment variable (os.getenv("API_TOKEN", "…"),
// os.environ.get(…), Ruby's ENV.fetch(…)), setting one (os.Setenv,
// putenv, System.setProperty).
var configCalls = []string{"define", "getenv", "environ.get", "env.fetch", "setenv", "putenv", "setproperty"}

// pairAt: at the ":" at i, after "name" or "key" in quotes: a name and a
// value as the two fields of an object (pairEntry).
func pairAt(s string, i int) bool {
	k := i
	for k > 0 && i-k < 4 && s[k-1] == ' ' {
		k--
	}
	if strings.HasSuffix(s[:k], `"name"`) || strings.HasSuffix(s[:k], `"key"`) {
		return pairEntry(s[k:])
	}
	return false
}

// spacedValue: at the phrase s[i:j] ("key ", "secret ", "token "), the
// name it ends — with its word, and the word before it — is a secret's,
// not a business one ("cache key", "primary key", "page token"); a bare
// "key" or "token" needs a secret's word before it (spacedQualifiers:
// "api key", "access token"); and the value after the blanks is 16 or
// more characters that look random or are a named key (namedKey), as
// after "=", and no date or number.
func spacedValue(s string, i, j int) bool {
	n := i
	for n > 0 && i-n < 64 && nameByte(s[n-1]) {
		n--
	}
	p := n
	if p > 1 && s[p-1] == ' ' {
		for p--; p > 0 && n-p < 32 && isAlnum(s[p-1]); p-- {
		}
	}
	name := s[n : j-1]
	if classifyName(name) != nameSecret || classifyName(s[p:j-1]) == nameNone {
		return false
	}
	if bare := strings.ToLower(name); (bare == "key" || bare == "token") && !containsFold(spacedQualifiers, s[p:n]) {
		return false // "GPG key", "lookup key", "order key", "Redis key"
	}
	v := j
	for v < len(s) && v-j < 4 && (s[v] == ' ' || s[v] == '\t') {
		v++
	}
	if v < len(s) && quoteByte(s[v]) {
		v++
	}
	w := v
	for w < len(s) && w-v <= maxBody && valueByte(s[w]) {
		w++
	}
	for w > v && (s[w-1] == '.' || s[w-1] == ':') {
		w-- // sentence punctuation
	}
	val := s[v:w]
	if len(val) < 16 || reference(val) || code(s, v, w) || dateOrNumber(val) {
		return false
	}
	return looksRandom(unescapeURL(val)) || namedKey(val)
}

// namedValue judges a value given under a name, as after "=": a
// password's by passwordValue, a secret's when it looks random or is a
// named key.
func namedValue(name, v string) bool {
	kind := classifyName(name)
	if kind == nameNone || v == "" || reference(v) || stand(v) || sameName(v, name) || idName(name) && isUUID(v) {
		return false
	}
	if kind == namePassword {
		return !strings.Contains(v, "://") && passwordValue(v, '=')
	}
	return !dateOrNumber(v) && (looksRandom(v) || namedKey(v))
}

// idName reports whether a name is a secret's identifier (a .NET
// project's UserSecretsId, a vault's secret_id): what it names is found by
// the value, not opened by it. A session's or a token's id is no such
// name: it is the credential itself.
func idName(name string) bool {
	var buf [64]byte
	b := buf[:0]
	for i := 0; i < len(name); i++ {
		if isAlnum(name[i]) {
			b = append(b, lower(name[i]))
		}
	}
	n := string(b)
	return strings.HasSuffix(n, "secretsid") || strings.HasSuffix(n, "secretid")
}

// isUUID reports whether v is a UUID in its canonical text form
// (RFC 9562: 8-4-4-4-12 hex digits).
func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if v[i] != '-' {
				return false
			}
		} else if !isHex(v[i]) {
			return false
		}
	}
	return true
}

// xmlElementAt: at the ">" at i, an element named as a secret holding its
// value, <password>…</password>, <apiToken>…</apiToken> (Maven's
// settings.xml, Spring and Jenkins configurations): a value without blanks
// up to "</".
func xmlElementAt(s string, i int) bool {
	j := i
	for j > 0 && i-j < 64 && (nameByte(s[j-1]) || s[j-1] == ':') {
		j--
	}
	if j == i || j == 0 || s[j-1] != '<' {
		return false
	}
	// The value, maybe on a line of its own between the tags.
	v := i + 1
	for v < len(s) && v-i <= 128 && isSpace(s[v]) {
		v++
	}
	end := v
	for end < len(s) && end-v <= maxBody && s[end] != '<' && !isSpace(s[end]) {
		end++
	}
	tag := end
	for tag < len(s) && tag-end <= 128 && isSpace(s[tag]) {
		tag++
	}
	if tag+1 >= len(s) || s[tag] != '<' || s[tag+1] != '/' {
		return false
	}
	name := s[j:i]
	if c := strings.LastIndexByte(name, ':'); c >= 0 {
		name = name[c+1:] // a namespace prefix
	}
	return namedValue(name, s[v:end])
}

// pairEntry: after "name" or "key", ":" and a quoted name, then ","
// and "value": and a quoted value, judged as after that name and "=".
func pairEntry(rest string) bool {
	rest = strings.TrimLeft(head(rest), " \t")
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	name, after, ok := quoted(strings.TrimLeft(rest[1:], " \t"))
	if !ok || classifyName(name) == nameNone {
		return false
	}
	after = strings.TrimLeft(after, " \t")
	if !strings.HasPrefix(after, ",") {
		return false
	}
	after = strings.TrimLeft(after[1:], " \t")
	if len(after) < len(`"value"`) || !equalFold(after[:len(`"value"`)], `"value"`) {
		return false
	}
	after = strings.TrimLeft(after[len(`"value"`):], " \t")
	if !strings.HasPrefix(after, ":") {
		return false
	}
	v, _, ok := quoted(strings.TrimLeft(after[1:], " \t"))
	return ok && namedValue(name, v)
}

// callArgs: after a call's "(", a quoted name (a name as a whole, not a
// sentence, path or query), "," and a quoted value, judged as after that
// name and "=" when config is set (callAt says when).
func callArgs(rest string, config bool) bool {
	name, v, ok := quotedArgs(rest)
	if !ok {
		return false
	}
	if j, _, whole := nameBefore(name, len(name)); !whole || j != 0 {
		return false // a sentence, a path, a query: no name
	}
	if !config && (classifyName(name) != nameSecret || strings.ContainsAny(v, " \t")) {
		// Any other call: a secret's name and a value of one word. A
		// password's name there is a label or a translation
		// (t("password", "Passwort")), whatever follows it.
		return false
	}
	return namedValue(name, v)
}

// quotedArgs reads two quoted arguments at the start of a call's rest:
// a string, ",", a string.
func quotedArgs(rest string) (first, second string, ok bool) {
	first, after, ok := quoted(strings.TrimLeft(head(rest), " \t"))
	if !ok {
		return "", "", false
	}
	after = strings.TrimLeft(after, " \t")
	if !strings.HasPrefix(after, ",") {
		return "", "", false
	}
	second, _, ok = quoted(strings.TrimLeft(after[1:], " \t"))
	return first, second, ok
}

// curlUser: at the option s[i:j] (-u, --user, -U, --proxy-user) of a
// curl command on the same line, a user:password (curl(1)), the password
// judged as after "password:" and not a template, variable or mask.
func curlUser(s string, i, j int) bool {
	line := s[max(0, i-maxBody):i]
	if nl := strings.LastIndexByte(line, '\n'); nl >= 0 {
		line = line[nl+1:]
	}
	c := strings.Index(line, "curl ")
	if c < 0 || c > 0 && isAlnum(line[c-1]) || i > 0 && s[i-1] != ' ' {
		return false
	}
	var f [1]string
	if fields(head(s[j:]), f[:]) == 0 {
		return false
	}
	cred := strings.Trim(f[0], `"'`)
	colon := strings.IndexByte(cred, ':')
	if colon <= 0 || bracketedPair(cred) {
		return false // <user:password>: the whole pair is a template
	}
	// "${user}":"${password}": each side quoted on its own.
	pw := strings.Trim(cred[colon+1:], `"'`)
	return pw != "" && !stand(pw) && !bracketed(pw) && !reference(pw) && passwordValue(pw, ':')
}

// configEntry: after `key=`, a quoted setting name that is a secret's or
// a password's, then `value=` and its quoted value, judged as after that
// name and "=" (a password's value by passwordValue, a secret's when it
// looks random).
func configEntry(rest string) bool {
	rest = head(rest)
	name, after, ok := quoted(rest)
	if !ok {
		return false
	}
	kind := classifyName(name)
	after = strings.TrimLeft(after, " \t")
	if kind == nameNone || len(after) < len("value=") || !equalFold(after[:len("value=")], "value=") {
		return false
	}
	v, _, ok := quoted(after[len("value="):])
	return ok && namedValue(name, v)
}

// credentialArgs: after "NetworkCredential(", a quoted user name and a
// quoted password, a password by passwordValue's "=" rule.
func credentialArgs(rest string) bool {
	_, v, ok := quotedArgs(rest)
	return ok && !reference(v) && passwordValue(v, '=')
}

// quoted reads a string in double or single quotes at the start of s and
// returns it and what follows the closing quote.
func quoted(s string) (v, rest string, ok bool) {
	if s == "" || s[0] != '"' && s[0] != '\'' {
		return "", s, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, false
	}
	return s[1 : 1+end], s[2+end:], true
}

// passwordOption: after "-password", a blank, "=" or ":" and a value that
// is a password by passwordValue's ":" rule (digits and letters, other
// symbols, or random).
func passwordOption(rest string) bool {
	if rest == "" || rest[0] != ' ' && rest[0] != '=' && rest[0] != ':' {
		return false
	}
	if rest[0] != ' ' && len(rest) > 1 && isSpace(rest[1]) {
		return false // "--password= ": an empty value
	}
	rest = head(rest)
	v := trimQuotes(strings.TrimLeft(rest[1:], " \t"))
	v = v[:runLen(v, valueByte)]
	// Not a variable, a template or placeholder ("{{secret}}", "<pw>",
	// "[password]", "(hidden)") or the next option.
	return v != "" && strings.IndexByte("$%{<[(-*", v[0]) < 0 && !reference(v) && !strings.Contains(v, "://") && passwordValue(v, ':')
}

// netrcPassword: after "machine ", a .netrc entry (netrc(5)): a host
// name (with a ".", or localhost), then, in any order within the entry's
// next fields, "login" and a user and "password" and a value of 6 or more
// characters that is not a word of business text (passwordValue's "="
// rule).
func netrcPassword(rest string) bool {
	var f [9]string
	n := fields(head(rest), f[:])
	if n < 5 || !strings.Contains(f[0], ".") && !strings.EqualFold(f[0], "localhost") {
		return false
	}
	login, pass := false, ""
	for k := 1; k+1 < n; k += 2 {
		switch {
		case strings.EqualFold(f[k], "login"):
			login = true
		case strings.EqualFold(f[k], "password"):
			pass = f[k+1]
		case !strings.EqualFold(f[k], "account") && !strings.EqualFold(f[k], "port"):
			return false
		}
	}
	return login && pass != "" && !reference(pass) && passwordValue(pass, '=')
}

// fields splits s at blanks into f, as many as fit, and returns how many
// it found; it allocates nothing.
func fields(s string, f []string) int {
	n := 0
	for n < len(f) {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			break
		}
		end := strings.IndexAny(s, " \t\r\n")
		if end < 0 {
			end = len(s)
		}
		f[n], s, n = s[:end], s[end:], n+1
	}
	return n
}

// head is the start of rest a phrase's check reads: bounded, so that a
// text repeating a phrase is still scanned in linear time.
func head(rest string) string {
	if len(rest) > 2*maxBody {
		return rest[:2*maxBody]
	}
	return rest
}

// quotedPassword: after "password is ", a quoted value (a JSON text's
// escaped quote too) of 4 to 64 characters without blanks, not all one
// character ("'****'"), not a variable, not a word of business text
// ("'expired'", "'case-sensitive'": passwordValue's "=" rule) unless it
// holds a digit or a symbol.
func quotedPassword(rest string) bool {
	rest = strings.TrimPrefix(rest, "\\")
	if rest == "" || !quoteByte(rest[0]) && !strings.HasPrefix(rest, "“") && !strings.HasPrefix(rest, "‘") {
		return false
	}
	_, size := utf8.DecodeRuneInString(rest)
	v := head(rest[size:])
	end := strings.IndexAny(v, "\"'`”’")
	if end < 0 {
		return false
	}
	v = strings.TrimSuffix(v[:end], "\\")
	n := utf8.RuneCountInString(v)
	if n < 4 || n > 64 || strings.ContainsAny(v, " \t") || strings.IndexByte("$%{<[(", v[0]) >= 0 || reference(v) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(v)
	if strings.Trim(v, string(first)) == "" {
		return false
	}
	m := measure(v)
	return m.digits > 0 || m.other > 0 || passwordValue(v, '=')
}

// firstPhrase indexes phrases by their first byte.
var firstPhrase [256][]int

// trimQuotes drops blanks and quotes, escaped ones included (a JSON text
// kept inside a string).
func trimQuotes(s string) string { return strings.TrimLeft(s, " \t\"'\\") }

func equalFold(a, lowerB string) bool {
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lowerB[i] {
			return false
		}
	}
	return true
}

// authTokenScheme: at "token " (s[i:j]), the Token scheme of an
// Authorization header, "authorization" before it with a ":" or "=" and
// quotes or blanks between, and a token after it, judged as a Bearer one.
func authTokenScheme(s string, i, j int) bool {
	k := i
	for k > 0 && i-k < 4 && (quoteByte(s[k-1]) || s[k-1] == ' ') {
		k--
	}
	if k == 0 || s[k-1] != ':' && s[k-1] != '=' {
		return false
	}
	k--
	for k > 0 && i-k < 8 && (quoteByte(s[k-1]) || s[k-1] == ' ') {
		k--
	}
	const name = "authorization"
	return k >= len(name) && strings.EqualFold(s[k-len(name):k], name) && bearerToken(trimQuotes(s[j:]))
}

// bracketed reports whether v is words in brackets, [PASSWORD] or
// <your-password>: documentation's placeholder for a value (letters, no
// digits: [Secret123] is a value).
func bracketed(v string) bool {
	if len(v) < 3 || !(v[0] == '[' && v[len(v)-1] == ']' || v[0] == '<' && v[len(v)-1] == '>') {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; !isAlnum(c) && c != '_' && c != '-' && c != ' ' || isDigit(c) {
			return false
		}
	}
	return true
}

// bracketedPair reports whether a user:password pair is one placeholder
// in brackets, <user:password>, or its user and password each are one.
func bracketedPair(cred string) bool {
	if len(cred) > 2 && (cred[0] == '<' && cred[len(cred)-1] == '>' || cred[0] == '[' && cred[len(cred)-1] == ']') {
		return bracketed(strings.Replace(cred, ":", "_", 1))
	}
	return false
}

func bearerToken(rest string) bool {
	n := runLen(rest, func(c byte) bool { return wordByte(c) || c == '~' })
	if n < 12 {
		return false
	}
	t := rest[:n]
	// Letters alone are a token when they look random: "Bearer
	// yvxpthLIcYpZweFpPOVeCOtt", not "Bearer AuthenticationScheme".
	return hasDigit(t) || strings.ContainsAny(t, "._-~+/") || n >= 16 && looksRandom(t)
}

func basicToken(rest string) bool {
	n := runLen(rest, wordByte)
	if n < 8 {
		return false
	}
	// The value ends at the run's end, or at one of the last few "/" in it
	// (a path after the credential): a few tries, not one per "/", so that
	// a run of slashes costs no more than any text.
	for end, tries := n, 0; end >= 8 && tries < 4; end-- {
		if end < n && rest[end] != '/' {
			continue
		}
		tries++
		if dec, ok := decodeBase64(rest[:end]); ok && strings.IndexByte(string(dec), ':') > 0 {
			return true
		}
	}
	return false
}

func cookiePair(rest string) bool {
	n := runLen(rest, func(c byte) bool { return wordByte(c) && c != '=' })
	return n > 0 && n < len(rest) && rest[n] == '=' && len(rest)-n > 4
}

// setCookieValue matches a cookie string without its header name: a
// name=value pair whose value looks like a session id (16 or more random
// characters with a digit), in a string that has "; " as cookie strings
// do ("sid=…; Path=/; HttpOnly", "a=1; sid=…").
func setCookieValue(s string) bool {
	if !strings.Contains(s, "; ") {
		return false
	}
	for rest := s; ; {
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return false
		}
		name := 0
		for name < eq && name < 64 && (keyByte(rest[eq-1-name]) || rest[eq-1-name] == '.') {
			name++
		}
		rest = rest[eq+1:]
		n := runLen(rest, func(c byte) bool { return wordByte(c) && c != '=' || c == '%' })
		if v := rest[:n]; name > 0 && n >= 16 && hasDigit(v) && classChanges(v)*3 >= len(v) {
			return true
		}
	}
}

// classChanges counts the changes of character class between neighbours.
func classChanges(v string) int {
	changes := 0
	for i := 1; i < len(v); i++ {
		if charClass(v[i]) != charClass(v[i-1]) {
			changes++
		}
	}
	return changes
}

// urlPassword matches user:password@ (or :password@) right after "://".
// The user is a plain name; the password is anything up to the "@".
func urlPassword(rest string) bool {
	end := strings.IndexAny(rest, "/ \t\r\n")
	if end < 0 {
		end = len(rest)
	}
	auth := rest[:end]
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return false
	}
	colon := strings.IndexByte(auth[:at], ':')
	return colon >= 0 && colon < at-1 && !strings.ContainsAny(auth[:colon], "?#=&") && !stand(auth[colon+1:at])
}

// stand reports whether a value stands for one instead of being one, as
// a whole: a template ("${PASS}", "$(PGPASSWORD)", "{{ pass }}",
// "%(password)s", "{password}", "{token_for(org)}", "<password>"), a
// variable (reference: "$password", "$DB_PASS") or a mask ("*****",
// "xxxxxx"). "$", "{" or "<" inside or at the start of a value is part of
// it ("$ecr3tV4lue!", "{Xy9#kq}", "<Wint3r>Sky9").
func stand(p string) bool {
	if p == "" {
		return false
	}
	switch {
	case strings.HasPrefix(p, "${") && strings.HasSuffix(p, "}"),
		strings.HasPrefix(p, "$(") && strings.HasSuffix(p, ")"),
		strings.HasPrefix(p, "{{") && strings.HasSuffix(p, "}}"):
		return len(p) > 3
	case strings.HasPrefix(p, "%(") && strings.HasSuffix(p, ")s"):
		return identifier(p[2 : len(p)-2])
	case strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}"):
		return placeholderName(strings.TrimSpace(p[1 : len(p)-1]))
	case strings.HasPrefix(p, "<") && strings.HasSuffix(p, ">"):
		return placeholderWords(p[1 : len(p)-1])
	case strings.HasPrefix(p, "&lt;") && strings.HasSuffix(p, "&gt;") && len(p) > 8:
		return placeholderWords(p[4 : len(p)-4]) // "<…>" escaped in HTML or XML
	}
	return reference(p) || strings.Trim(p, "*") == "" || strings.Trim(p, "xX") == ""
}

// placeholderName reports whether the inside of "{…}" is a format
// placeholder: a name or a call in code ("password", "db.password",
// "token_for(org)"), the name named as a secret, written in lower case or
// as an environment variable, or called. "{Xy9kq2}" is a value.
func placeholderName(n string) bool {
	call := false
	if k := strings.IndexByte(n, '('); k > 0 && n[len(n)-1] == ')' {
		n, call = n[:k], true
	}
	if n == "" || isDigit(n[0]) {
		return false
	}
	upper, lowerCase := true, true
	for k := 0; k < len(n); k++ {
		c := n[k]
		switch {
		case isLower(c):
			upper = false
		case isUpper(c):
			lowerCase = false
		case c == '_' || c == '.' || isDigit(c):
		default:
			return false
		}
	}
	return call || upper || lowerCase || classifyName(n) != nameNone
}

// placeholderWords reports whether the inside of "<…>" is a placeholder's
// words: letters, "_", "-", "." and blanks ("password", "DB_PASSWORD",
// "your password").
func placeholderWords(w string) bool {
	if strings.TrimSpace(w) == "" {
		return false
	}
	for k := 0; k < len(w); k++ {
		if c := w[k]; !isLower(c) && !isUpper(c) && c != '_' && c != '-' && c != '.' && c != ' ' {
			return false
		}
	}
	return true
}

// randomWord looks at every base64 or base64url word of s (letters,
// digits, "+", "/", "_", "-", with "=" padding): one of 32 or more
// characters that looks random is a key of some provider, and so is a
// 40-character one shaped like an AWS secret access key. Hex words never
// match alone: a hash is business text. A data: URI's base64 is content.
func randomWord(s string) bool {
	for i := 0; i < len(s); {
		for i < len(s) && !(base64Byte(s[i]) || s[i] == '_' || s[i] == '-') {
			i++
		}
		j := i
		for j < len(s) && (base64Byte(s[j]) || s[j] == '_' || s[j] == '-') {
			j++
		}
		w := s[i:j]
		if len(w) >= 32 && !strings.HasSuffix(s[:i], "base64,") && !integrityDigest(w) {
			// An AWS secret key: 40 characters, alone or between "/".
			for p := 0; p+40 <= len(w); p++ {
				if (p == 0 || w[p-1] == '/') && (p+40 == len(w) || w[p+40] == '/') && awsSecret(w[p:p+40]) {
					return true
				}
			}
			// A path is judged by its segments; a base64 word with a few
			// "/" as a whole too.
			if strings.IndexByte(w, '/') < 0 {
				if randomKey(w) {
					return true
				}
			} else {
				if strings.Count(w, "/") <= len(w)/16+1 && hasUpperLower(w) && !pathLike(w) && randomKey(w) {
					return true
				}
				for rest := w; rest != ""; {
					seg, tail, _ := strings.Cut(rest, "/")
					if len(seg) >= 32 && randomKey(seg) {
						return true
					}
					rest = tail
				}
			}
		}
		i = j
		if i < len(s) {
			i++
		}
	}
	return false
}

// integrityDigest reports whether w, a word of randomWord (which ends
// before any "=" of padding), is a Subresource Integrity digest, as HTML's
// integrity attributes and npm's lockfiles write one: "sha256-",
// "sha384-" or "sha512-" and the base64 of a hash of that size. A hash of
// public content, not a secret (an outside measurement found every such
// digest redacted); under a secret's name a value is judged as one anyway.
func integrityDigest(w string) bool {
	for _, d := range [...]struct {
		alg string
		n   int // base64 characters of the hash, without padding
	}{{"sha256-", 43}, {"sha384-", 64}, {"sha512-", 86}} {
		if body, ok := strings.CutPrefix(w, d.alg); ok {
			return len(body) == d.n && strings.IndexFunc(body, func(r rune) bool {
				return !(r < 0x80 && (isAlnum(byte(r)) || r == '+' || r == '/'))
			}) < 0
		}
	}
	return false
}

// pathLike reports whether a word with "/" has a segment of lower-case
// letters, digits and "-" that holds a word: a path such as
// /customers/…/orders, not base64.
func pathLike(w string) bool {
	for rest := w; rest != ""; {
		seg, tail, _ := strings.Cut(rest, "/")
		ok := true
		for i := 0; i < len(seg) && ok; i++ {
			c := seg[i]
			ok = isLower(c) || isDigit(c) || c == '-' || c == '_'
		}
		if ok && wordy(seg) >= 4 {
			return true
		}
		rest = tail
	}
	return false
}

// randomKey judges one word of 32 or more characters.
func randomKey(w string) bool {
	if strings.Count(w, "-")+strings.Count(w, "_") > len(w)/8 {
		return false
	}
	hex := true
	for i := 0; i < len(w) && hex; i++ {
		hex = isHex(w[i]) || w[i] == '-' || w[i] == '_'
	}
	if hex {
		return false // a hash
	}
	m := measure(w)
	if m.digits == 0 || m.letters == 0 || wordy(w)*4 > len(w) {
		return false
	}
	if m.upper == 0 || m.lower == 0 {
		return m.changeRate() >= 0.35 && m.vowelRate() <= 0.3
	}
	return m.changeRate() >= 0.35 && m.vowelRate() <= 0.4
}

// wordy counts the characters of w in words: runs of four or more
// lower-case letters with a vowel for every three letters. They make most
// of a path or an identifier and little of a random key, whose letter runs
// have few vowels.
func wordy(w string) int {
	n, run, vowels := 0, 0, 0
	for i := 0; i <= len(w); i++ {
		if i < len(w) && isLower(w[i]) {
			run++
			if isVowel(w[i]) {
				vowels++
			}
			continue
		}
		if run >= 4 && vowels*3 >= run {
			n += run
		}
		run, vowels = 0, 0
	}
	return n
}

// awsSecret matches a 40-character base64 word that looks random: an AWS
// secret access key (and keys of the same shape). Mixed case and digits are
// required, the character class must change often, and the word must have
// few lower-case runs of three or more letters, which CamelCase identifiers
// and paths are made of; a path has more than two "/". Hex hashes have no upper case
// and never match.
func awsSecret(w string) bool {
	if len(w) != 40 || runLen(w, base64Byte) != 40 {
		return false
	}
	var seen [4]int
	changes, lowerRun, longRuns := 0, 0, 0
	for i := 0; i < len(w); i++ {
		c := charClass(w[i])
		seen[c]++
		if i > 0 && c != charClass(w[i-1]) {
			changes++
		}
		if c == 0 {
			if lowerRun++; lowerRun == 3 {
				longRuns++
			}
		} else {
			lowerRun = 0
		}
	}
	if seen[0] == 0 || seen[1] == 0 || seen[2] == 0 {
		return false
	}
	if seen[3] > 0 && strings.Count(w, "/") <= 2 {
		return changes >= 12 && longRuns <= 3
	}
	return changes >= 16 && longRuns <= 3
}

// hashSchemes are the identifiers of stored-password hash formats, as they
// open a hash: "$ID$…" in the modular crypt format of crypt(3) and the PHC
// string format (md5crypt 1, bcrypt 2a/2b/2x/2y, sha256crypt 5,
// sha512crypt 6, scrypt 7, Cisco 8 and 9, yescrypt y and gy, Apache apr1,
// Sun md5, argon2, pbkdf2 and scrypt as passlib and the PHC write them,
// phpass P and H and WordPress's "$wp$" bcrypt; in lower case, matched in
// any case) and the Kerberos 5
// AS-REP, TGS and pre-authentication hashes as hashcat reads them; and,
// with "ID$…" at a token start, Django's stored passwords
// (djangoSchemes). A password hash is not the password, but it is what a
// cracker starts from: a stored hash never belongs in an agent's context.
var (
	hashSchemes = []string{"1", "2a", "2b", "2x", "2y", "5", "6", "7", "8", "9", "y", "gy", "apr1", "md5",
		"argon2i", "argon2d", "argon2id", "pbkdf2", "pbkdf2-sha1", "pbkdf2-sha256", "pbkdf2-sha512", "scrypt",
		"p", "h", "wp", "krb5asrep", "krb5tgs", "krb5pa"}
	djangoSchemes = []string{"pbkdf2_sha256", "pbkdf2_sha1", "argon2", "bcrypt_sha256", "bcrypt", "scrypt", "sha1", "md5"}
)

// passwordHashAt: at the "$" at i, a password hash (hashSchemes,
// djangoSchemes): its scheme, then "$"-separated fields, the last of them
// the hash, 20 or more characters of the crypt or base64 alphabets or hex
// that vary as a hash does. Prices and shell variables ("$12.50",
// "$1$2", "$HOME") have no known scheme or no such last field.
//
// It returns where the token it judged ends (i when no scheme opens
// there): the hash is the token's last field whichever "$" led to it, so
// scan need not judge the token again from a later "$" in it, and a text
// full of "$" is scanned in linear time.
func passwordHashAt(s string, i int) (bool, int) {
	start := i + 1 // the scheme, after "$"
	if i > 0 && (isAlnum(s[i-1]) || s[i-1] == '_' || s[i-1] == '$') {
		// "ID$…" (Django): the scheme is the token before the "$".
		j := i
		for j > 0 && i-j <= 16 && (isAlnum(s[j-1]) || s[j-1] == '_') {
			j--
		}
		if j > 0 && (isAlnum(s[j-1]) || s[j-1] == '$' || s[j-1] == '_') || !containsFold(djangoSchemes, s[j:i]) {
			return false, i
		}
		start = i
	} else {
		end := start
		for end < len(s) && end-start <= 16 && (isAlnum(s[end]) || s[end] == '-') {
			end++
		}
		if end >= len(s) || s[end] != '$' || !containsFold(hashSchemes, s[start:end]) {
			return false, i
		}
		start = end
	}
	// The fields up to the end of the token; the hash is the last one, up
	// to the first byte outside its alphabets (a "," or ";" after it in a
	// CSV or a connection string).
	end := start
	for end < len(s) && end-start <= maxBody && !isSpace(s[end]) && !quoteByte(s[end]) {
		end++
	}
	last := strings.LastIndexByte(s[start:end], '$')
	if last < 0 {
		return false, end
	}
	h := s[start+last+1 : end]
	h = strings.TrimRight(h[:runLen(h, hashByte)], ".")
	return len(h) >= 20 && hasDigit(h) && (hasUpperLower(h) || hexWord(h)), end
}

// hashByte: the crypt alphabet ("./", letters, digits), base64's "+" and
// "=", and hex.
func hashByte(c byte) bool { return isAlnum(c) || c == '.' || c == '/' || c == '+' || c == '=' }

// containsFold reports whether list, written in lower case, holds w,
// ignoring ASCII case.
func containsFold(list []string, w string) bool {
	for _, x := range list {
		if len(x) == len(w) && equalFold(w, x) {
			return true
		}
	}
	return false
}
