// Command gen writes the generated part of the credential corpus:
// secrets-tune.jsonl, secrets-heldout.jsonl, business-tune.jsonl and
// business-heldout.jsonl in testdata/credentials. Run it from the
// repository root:
//
//	go run ./testdata/credentials/gen
//
// Every secret is fake: random characters in the documented format of its
// provider (prefix, alphabet, length), taken from the public rule sets the
// credential net cites (gitleaks v8.30.1 config/gitleaks.toml, trufflehog
// v3.97.0 detectors, Yelp detect-secrets v1.5.0 plugins). The business strings are the kind of text a store
// holds: order numbers, SKUs, coupons, slugs, hashes, tracking numbers,
// IBANs, UUIDs, URLs, routes and prose that mentions keys, tokens, secrets
// and passwords.
//
// The split into a tuning and a held-out set is fixed by the seed, before
// any rule is written: per kind, the first samples tune (three of five
// secrets, five of ten business strings) and the rest are held out, and a
// fifth of the kinds (chosen by a hash of the kind's name) are held out
// whole, so the held-out figures also measure kinds the rules were never
// tuned on.
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

var rng = rand.New(rand.NewPCG(20261130, 11))

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowerC = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	alnum  = upper + lowerC + digits
	hexL   = "0123456789abcdef"
	hexU   = "0123456789ABCDEF"
	b64    = alnum + "+/"
	b64url = alnum + "-_"
)

func pick(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[rng.IntN(len(set))]
	}
	return string(b)
}

func an(n int) string      { return pick(alnum, n) }
func lan(n int) string     { return pick(lowerC+digits, n) }
func uan(n int) string     { return pick(upper+digits, n) }
func hex(n int) string     { return pick(hexL, n) }
func url64(n int) string   { return pick(b64url, n) }
func std64(n int) string   { return pick(b64, n) }
func dig(n int) string     { return pick(digits, n) }
func alpha(n int) string   { return pick(upper+lowerC, n) }
func between(a, b int) int { return a + rng.IntN(b-a+1) }

func uuid() string {
	return hex(8) + "-" + hex(4) + "-4" + hex(3) + "-" + pick("89ab", 1) + hex(3) + "-" + hex(12)
}

// b64of returns the standard base64 of n random bytes.
func b64of(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func jwtPart(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

func jwt() string {
	h := jwtPart(map[string]string{"alg": []string{"HS256", "RS256", "ES256"}[rng.IntN(3)], "typ": "JWT"})
	p := jwtPart(map[string]any{"sub": "user-" + dig(5), "iat": 1764400000 + rng.IntN(1e6), "tenant": pick(lowerC, 6)})
	return h + "." + p + "." + url64(between(43, 86))
}

// wrap64 breaks s into lines of 64 characters, as PEM does.
func wrap64(s string) string {
	var b strings.Builder
	for len(s) > 64 {
		b.WriteString(s[:64] + "\n")
		s = s[64:]
	}
	b.WriteString(s)
	return b.String()
}

// derBody returns a base64 body that starts as an ASN.1 SEQUENCE with a
// two-byte length (an RSA or PKCS #8 key), n random bytes long.
func derBody(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	b[0], b[1], b[2], b[3] = 0x30, 0x82, byte(n>>8), byte(n)
	b[4], b[5], b[6] = 0x02, 0x01, 0x00
	return base64.StdEncoding.EncodeToString(b)
}

func urlEscape64(s string) string {
	return strings.NewReplacer("+", "%2B", "/", "%2F", "=", "%3D").Replace(s)
}

func password() string {
	return pick(alnum+"!@#$%^*", between(14, 24))
}

type kind struct {
	name, provider string
	gen            func() string
}

var secretKinds = []kind{
	{"github-pat", "GitHub", func() string { return "ghp_" + an(36) }},
	{"github-oauth", "GitHub", func() string { return "gho_" + an(36) }},
	{"github-user-to-server", "GitHub", func() string { return "ghu_" + an(36) }},
	{"github-server-to-server", "GitHub", func() string { return "ghs_" + an(36) }},
	{"github-refresh", "GitHub", func() string { return "ghr_" + an(36) }},
	{"github-fine-grained-pat", "GitHub", func() string { return "github_pat_11" + uan(20) + "_" + an(59) }},
	{"gitlab-pat", "GitLab", func() string { return "glpat-" + url64(20) }},
	{"gitlab-deploy-token", "GitLab", func() string { return "gldt-" + url64(20) }},
	{"gitlab-runner-token", "GitLab", func() string { return "glrt-" + url64(20) }},
	{"gitlab-pipeline-trigger", "GitLab", func() string { return "glptt-" + hex(40) }},
	{"gitlab-feed-token", "GitLab", func() string { return "glft-" + url64(20) }},
	{"gitlab-oauth-secret", "GitLab", func() string { return "gloas-" + hex(64) }},
	{"gitlab-scim-token", "GitLab", func() string { return "glsoat-" + url64(20) }},
	{"slack-bot", "Slack", func() string { return "xoxb-" + dig(12) + "-" + dig(13) + "-" + an(24) }},
	{"slack-user", "Slack", func() string { return "xoxp-" + dig(12) + "-" + dig(12) + "-" + dig(13) + "-" + hex(32) }},
	{"slack-app", "Slack", func() string { return "xapp-1-A" + uan(10) + "-" + dig(13) + "-" + hex(64) }},
	{"slack-config", "Slack", func() string { return "xoxe.xoxp-1-" + uan(163) }},
	{"slack-config-refresh", "Slack", func() string { return "xoxe-1-" + uan(146) }},
	{"slack-legacy", "Slack", func() string { return "xoxs-" + dig(11) + "-" + dig(12) + "-" + dig(12) + "-" + hex(10) }},
	{"slack-webhook", "Slack", func() string {
		return "https://hooks.slack.com/services/T" + uan(8) + "/B" + uan(10) + "/" + an(24)
	}},
	{"stripe-secret", "Stripe", func() string { return "sk_live_51" + an(between(24, 97)) }},
	{"stripe-secret-test", "Stripe", func() string { return "sk_test_51" + an(between(24, 97)) }},
	{"stripe-restricted", "Stripe", func() string { return "rk_live_51" + an(between(24, 97)) }},
	{"stripe-publishable", "Stripe", func() string { return "pk_live_51" + an(between(24, 97)) }},
	{"stripe-webhook-secret", "Stripe", func() string { return "whsec_" + an(32) }},
	{"aws-access-key-id", "AWS", func() string { return "AKIA" + pick(upper+"234567", 16) }},
	{"aws-sts-key-id", "AWS", func() string { return "ASIA" + pick(upper+"234567", 16) }},
	{"aws-secret-access-key", "AWS", func() string { return "aws_secret_access_key = " + std64(40) }},
	{"aws-session-token", "AWS", func() string { return "IQoJb3JpZ2luX2VjE" + std64(between(300, 400)) }},
	{"gcp-api-key", "Google", func() string { return "AIza" + url64(35) }},
	{"google-oauth-refresh", "Google", func() string { return "1//0" + url64(99) }},
	{"google-oauth-access", "Google", func() string { return "ya29." + url64(between(120, 200)) }},
	{"google-oauth-client-secret", "Google", func() string { return "GOCSPX-" + url64(28) }},
	{"gcp-service-account", "Google", func() string {
		return `{"type": "service_account", "project_id": "acme-prod", "private_key_id": "` + hex(40) +
			`", "private_key": "-----BEGIN PRIVATE KEY-----\n` + derBody(200)[:120] + `\n-----END PRIVATE KEY-----\n"}`
	}},
	{"azure-storage-connection", "Azure", func() string {
		return "DefaultEndpointsProtocol=https;AccountName=acme" + lan(6) + ";AccountKey=" + b64of(64) + ";EndpointSuffix=core.windows.net"
	}},
	{"azure-sas-url", "Azure", func() string {
		return "https://acme" + lan(4) + ".blob.core.windows.net/invoices/INV-00042.pdf?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&spr=https&sig=" + urlEscape64(b64of(32))
	}},
	{"azure-ad-client-secret", "Azure", func() string { return an(3) + dig(1) + "Q~" + pick(alnum+"_~.-", 34) }},
	{"azure-cosmos-connection", "Azure", func() string {
		return "AccountEndpoint=https://acme.documents.azure.com:443/;AccountKey=" + b64of(64) + ";"
	}},
	{"telegram-bot-token", "Telegram", func() string { return dig(10) + ":AA" + url64(33) }},
	{"discord-bot-token", "Discord", func() string { return pick("MNO", 1) + an(25) + "." + url64(6) + "." + url64(38) }},
	{"discord-webhook", "Discord", func() string { return "https://discord.com/api/webhooks/" + dig(18) + "/" + url64(68) }},
	{"notion-secret", "Notion", func() string { return "secret_" + an(43) }},
	{"notion-ntn", "Notion", func() string { return "ntn_" + dig(11) + an(35) }},
	{"vault-service-token", "HashiCorp", func() string { return "hvs.CAESI" + url64(between(86, 110)) }},
	{"vault-batch-token", "HashiCorp", func() string { return "hvb.AAAAAQ" + url64(140) }},
	{"terraform-cloud-token", "HashiCorp", func() string { return an(14) + ".atlasv1." + an(67) }},
	{"mapbox-secret", "Mapbox", func() string { return "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + an(20) + "In0." + url64(22) }},
	{"mapbox-public", "Mapbox", func() string { return "pk.eyJ1IjoiYWNtZSIsImEiOiJ" + an(20) + "In0." + url64(22) }},
	{"npm-token", "npm", func() string { return "npm_" + an(36) }},
	{"pypi-token", "PyPI", func() string { return "pypi-AgEIcHlwaS5vcmc" + url64(between(70, 160)) }},
	{"openai-project-key", "OpenAI", func() string { return "sk-proj-" + url64(74) + "T3BlbkFJ" + url64(74) }},
	{"openai-legacy-key", "OpenAI", func() string { return "sk-" + an(20) + "T3BlbkFJ" + an(20) }},
	{"openai-service-account", "OpenAI", func() string { return "sk-svcacct-" + url64(58) + "T3BlbkFJ" + url64(58) }},
	{"anthropic-api-key", "Anthropic", func() string { return "sk-ant-api03-" + url64(93) + "AA" }},
	{"anthropic-admin-key", "Anthropic", func() string { return "sk-ant-admin01-" + url64(93) + "AA" }},
	{"twilio-api-key", "Twilio", func() string { return "SK" + hex(32) }},
	{"sendgrid-api-key", "SendGrid", func() string { return "SG." + url64(22) + "." + url64(43) }},
	{"mailgun-private-key", "Mailgun", func() string { return "key-" + hex(32) }},
	{"mailgun-signing-key", "Mailgun", func() string { return hex(32) + "-" + hex(8) + "-" + hex(8) }},
	{"shopify-access-token", "Shopify", func() string { return "shpat_" + hex(32) }},
	{"shopify-shared-secret", "Shopify", func() string { return "shpss_" + hex(32) }},
	{"shopify-custom-app", "Shopify", func() string { return "shpca_" + hex(32) }},
	{"shopify-private-app", "Shopify", func() string { return "shppa_" + hex(32) }},
	{"atlassian-api-token", "Atlassian", func() string { return "ATATT3xFfGF0" + url64(170) + "=" + pick(hexU, 8) }},
	{"digitalocean-pat", "DigitalOcean", func() string { return "dop_v1_" + hex(64) }},
	{"digitalocean-oauth", "DigitalOcean", func() string { return "doo_v1_" + hex(64) }},
	{"heroku-api-key", "Heroku", func() string { return "HRKU-AA" + url64(58) }},
	{"doppler-token", "Doppler", func() string { return "dp.pt." + an(43) }},
	{"doppler-service-token", "Doppler", func() string { return "dp.st.prd." + an(43) }},
	{"linear-api-key", "Linear", func() string { return "lin_api_" + an(40) }},
	{"postman-api-key", "Postman", func() string { return "PMAK-" + hex(24) + "-" + hex(34) }},
	{"hubspot-pat", "HubSpot", func() string { return "pat-" + pick("ne", 1) + "a1-" + uuid() }},
	{"databricks-token", "Databricks", func() string { return "dapi" + hex(32) }},
	{"huggingface-token", "Hugging Face", func() string { return "hf_" + alpha(34) }},
	{"huggingface-org-token", "Hugging Face", func() string { return "api_org_" + alpha(34) }},
	{"age-secret-key", "age", func() string { return "AGE-SECRET-KEY-1" + pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58) }},
	{"pulumi-token", "Pulumi", func() string { return "pul-" + hex(40) }},
	{"grafana-service-account", "Grafana", func() string { return "glsa_" + an(32) + "_" + hex(8) }},
	{"grafana-cloud-token", "Grafana", func() string { return "glc_eyJvIjoi" + std64(between(60, 120)) }},
	{"sentry-user-token", "Sentry", func() string { return "sntryu_" + hex(64) }},
	{"sentry-org-token", "Sentry", func() string { return "sntrys_eyJpYXQiOjE3" + std64(between(80, 140)) }},
	{"square-access-token", "Square", func() string { return "EAAA" + url64(60) }},
	{"square-oauth-secret", "Square", func() string { return "sq0csp-" + url64(43) }},
	{"newrelic-user-key", "New Relic", func() string { return "NRAK-" + uan(27) }},
	{"dynatrace-token", "Dynatrace", func() string { return "dt0c01." + uan(24) + "." + uan(64) }},
	{"flyio-token", "Fly.io", func() string { return "fo1_" + url64(43) }},
	{"planetscale-token", "PlanetScale", func() string { return "pscale_tkn_" + url64(43) }},
	{"planetscale-password", "PlanetScale", func() string { return "pscale_pw_" + url64(43) }},
	{"prefect-token", "Prefect", func() string { return "pnu_" + an(36) }},
	{"rubygems-token", "RubyGems", func() string { return "rubygems_" + hex(48) }},
	{"clojars-token", "Clojars", func() string { return "CLOJARS_" + lan(60) }},
	{"shippo-token", "Shippo", func() string { return "shippo_live_" + hex(40) }},
	{"easypost-key", "EasyPost", func() string { return "EZAK" + lan(54) }},
	{"duffel-token", "Duffel", func() string { return "duffel_live_" + url64(43) }},
	{"frameio-token", "Frame.io", func() string { return "fio-u-" + url64(64) }},
	{"typeform-token", "Typeform", func() string { return "tfp_" + url64(44) + "_" + an(14) }},
	{"readme-key", "ReadMe", func() string { return "rdme_" + lan(70) }},
	{"brevo-key", "Brevo", func() string { return "xkeysib-" + hex(64) + "-" + an(16) }},
	{"infracost-key", "Infracost", func() string { return "ico-" + an(32) }},
	{"adobe-client-secret", "Adobe", func() string { return "p8e-" + pick(hexL+"GHIJKLMNOPQRSTUVWXYZ", 32) }},
	{"alibaba-access-key", "Alibaba", func() string { return "LTAI" + an(20) }},
	{"contentful-token", "Contentful", func() string { return "CFPAT-" + url64(43) }},
	{"artifactory-key", "JFrog", func() string { return "AKCp" + an(69) }},
	{"perplexity-key", "Perplexity", func() string { return "pplx-" + an(48) }},
	{"groq-key", "Groq", func() string { return "gsk_" + an(52) }},
	{"xai-key", "xAI", func() string { return "xai-" + an(80) }},
	{"replicate-token", "Replicate", func() string { return "r8_" + an(37) }},
	{"langsmith-key", "LangChain", func() string { return "lsv2_pt_" + hex(32) + "_" + hex(10) }},
	{"openshift-token", "OpenShift", func() string { return "sha256~" + url64(43) }},
	{"sourcegraph-token", "Sourcegraph", func() string { return "sgp_" + hex(16) + "_" + hex(40) }},
	{"cloudflare-origin-ca", "Cloudflare", func() string { return "v1.0-" + hex(24) + "-" + hex(146) }},
	{"nuget-key", "NuGet", func() string { return "oy2" + lan(43) }},
	{"octopus-key", "Octopus Deploy", func() string { return "API-" + uan(26) }},
	{"flutterwave-secret", "Flutterwave", func() string { return "FLWSECK_TEST-" + hex(32) + "-X" }},
	{"harness-pat", "Harness", func() string { return "pat." + url64(22) + "." + hex(24) + "." + an(20) }},
	{"mailchimp-key", "Mailchimp", func() string { return hex(32) + "-us" + dig(2) }},
	{"settlemint-token", "SettleMint", func() string { return "sm_pat_" + lan(16) }},
	{"jwt", "generic", jwt},
	{"jwt-wrapped-at-dots", "generic", func() string { return strings.ReplaceAll(jwt(), ".", "\n.") }},
	{"jwt-split-by-spaces", "generic", func() string {
		j := jwt()
		return j[:20] + " " + j[20:50] + " " + j[50:]
	}},
	{"pem-rsa", "PEM", func() string {
		return "-----BEGIN RSA PRIVATE KEY-----\n" + wrap64(derBody(600)) + "\n-----END RSA PRIVATE KEY-----"
	}},
	{"pem-openssh", "PEM", func() string {
		return "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + wrap64(std64(300)) + "\n-----END OPENSSH PRIVATE KEY-----"
	}},
	{"pem-ec", "PEM", func() string {
		return "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI" + wrap64(std64(150)) + "\n-----END EC PRIVATE KEY-----"
	}},
	{"pem-pkcs8-body", "PEM without armour", func() string { return wrap64(derBody(1200)) }},
	{"pem-openssh-body", "PEM without armour", func() string {
		return wrap64("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB" + std64(200))
	}},
	{"pem-ec-body", "PEM without armour", func() string { return "MHcCAQEEI" + std64(110) }},
	{"pgp-private-block", "PGP", func() string {
		return "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBG" + wrap64(std64(400)) + "\n-----END PGP PRIVATE KEY BLOCK-----"
	}},
	{"putty-key", "PuTTY", func() string {
		return "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n" + wrap64(std64(80)) + "\nPrivate-Lines: 1\n" + std64(64)
	}},
	{"postgres-url", "connection string", func() string {
		return "postgres://app_" + lan(4) + ":" + an(20) + "@db-" + lan(4) + ".internal.example.com:5432/orders"
	}},
	{"mysql-url", "connection string", func() string { return "mysql://root:" + password() + "@10.0.3.7:3306/shop" }},
	{"mongodb-url", "connection string", func() string {
		return "mongodb+srv://svc-orders:" + an(24) + "@cluster0." + lan(5) + ".mongodb.net/?retryWrites=true&w=majority"
	}},
	{"redis-url", "connection string", func() string { return "redis://:" + an(32) + "@cache.internal:6379/0" }},
	{"amqp-url", "connection string", func() string { return "amqps://worker:" + an(20) + "@mq.example.net/vhost" }},
	{"basic-auth-url", "URL", func() string { return "https://deploy:" + an(16) + "@ci.example.com/hooks/build" }},
	{"bearer-header", "HTTP", func() string { return "Authorization: Bearer " + url64(between(32, 64)) }},
	{"basic-header", "HTTP", func() string {
		return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("svc-"+lan(5)+":"+an(18)))
	}},
	{"cookie-header", "HTTP", func() string { return "Cookie: theme=dark; session=" + url64(32) + "; lang=en" }},
	{"set-cookie", "HTTP", func() string { return "sessionid=" + lan(32) + "; Path=/; HttpOnly; Secure; SameSite=Lax" }},
	{"url-access-token", "URL query", func() string {
		return "https://api.example.com/v2/orders?status=open&access_token=" + url64(40)
	}},
	{"url-token", "URL query", func() string { return "https://app.example.com/download?file=report.pdf&token=" + an(32) }},
	{"url-id-token-fragment", "URL fragment", func() string {
		return "https://app.example.com/callback#state=xyz&id_token=" + jwt()
	}},
	{"url-api-key", "URL query", func() string { return "https://maps.example.com/api/geocode?address=Main+St&api_key=" + hex(32) }},
	{"url-client-secret", "URL query", func() string {
		return "https://login.example.com/oauth/token?grant_type=client_credentials&client_id=orders&client_secret=" + url64(40)
	}},
	{"url-key", "URL query", func() string { return "https://example.com/feed.json?key=" + an(40) }},
	{"url-signature", "URL query", func() string {
		return "https://files.example.com/exports/orders.csv?Expires=1764403600&Signature=" + urlEscape64(b64of(48))
	}},
	{"url-password", "URL query", func() string { return "https://legacy.example.com/login?user=admin&password=" + password() }},
	{"env-database-password", "env", func() string { return "DATABASE_PASSWORD=" + password() }},
	{"env-secret-key-base", "env", func() string { return "SECRET_KEY_BASE=" + hex(128) }},
	{"env-jwt-secret", "env", func() string { return "JWT_SECRET: " + url64(between(32, 64)) }},
	{"env-api-token", "env", func() string { return "export API_TOKEN=" + an(40) }},
	{"env-datadog-key", "env", func() string { return "DD_API_KEY=" + hex(32) }},
	{"env-heroku-key", "env", func() string { return "HEROKU_API_KEY=" + uuid() }},
	{"env-azure-devops-pat", "env", func() string { return "AZURE_DEVOPS_PAT=" + pick("abcdefghijklmnopqrstuvwxyz234567", 52) }},
	{"env-twilio-auth-token", "env", func() string { return "TWILIO_AUTH_TOKEN=" + hex(32) }},
	{"yaml-client-secret", "YAML", func() string { return "client_secret: " + url64(between(32, 48)) }},
	{"yaml-password", "YAML", func() string { return "  password: \"" + password() + "\"" }},
	{"json-api-key", "JSON", func() string { return `{"apiKey": "` + an(between(32, 48)) + `", "region": "eu"}` }},
	{"json-private-key", "JSON", func() string { return `{"privateKey": "` + b64of(48) + `"}` }},
	{"ini-credentials", "INI", func() string { return "[default]\nusername = svc\ncredentials = " + url64(40) }},
}

// business strings: generators of text a store holds that must pass.
var businessKinds = []kind{
	{"order number", "", func() string {
		return []string{"SO-", "PO-2026-", "INV-2026-", "ORD-", "#", "RMA-"}[rng.IntN(6)] + dig(between(4, 7))
	}},
	{"order number", "", func() string { return "ORD-" + uan(8) }},
	{"sku", "", func() string {
		return "SKU-" + pick(upper, 3) + "-" + dig(3) + "-" + []string{"BLK", "WHT", "RED", "NVY"}[rng.IntN(4)] + "-" + []string{"S", "M", "L", "XL"}[rng.IntN(4)]
	}},
	{"sku", "", func() string { return pick(upper, 2) + dig(6) + pick(upper, 1) }},
	{"ean", "", func() string { return "40" + dig(11) }},
	{"coupon", "", func() string {
		return []string{"SPRING", "WELCOME", "SAVE", "FREESHIP", "BLACKFRIDAY", "VIP", "SUMMER"}[rng.IntN(7)] + dig(2)
	}},
	{"coupon", "", func() string {
		return []string{"Promo token=", "Coupon code: ", "Use code ", "voucher=", "Gift card key: "}[rng.IntN(5)] +
			[]string{"SPRING24", "WELCOME10", "SAVE20-NOW", "FREESHIP50", "VIP-GOLD-2026", "HOLIDAY-BUNDLE"}[rng.IntN(6)]
	}},
	{"slug", "", func() string {
		return []string{"sk", "pk", "rk", "key", "api", "sg", "gh", "hf", "npm", "ya", "token", "secret"}[rng.IntN(12)] + "-" +
			[]string{"winter", "summer", "spring", "autumn", "launch", "holiday"}[rng.IntN(6)] + "-" +
			[]string{"collection", "campaign", "lookbook", "sale", "catalog", "preview"}[rng.IntN(6)] + "-2026-" +
			[]string{"final", "v2", "draft", "eu", "us-east", "landing-page"}[rng.IntN(6)]
	}},
	{"slug", "", func() string {
		return []string{"how-to-rotate-your-api-key", "password-reset-best-practices", "secret-santa-gift-guide-2026",
			"token-gating-explained", "keyboard-shortcuts-for-power-users", "why-we-moved-to-passkeys",
			"access-token-lifetimes-faq", "private-key-ceremony-recap"}[rng.IntN(8)] + "-" + dig(4)
	}},
	{"business secret words", "", func() string {
		return []string{"Secret: surprise-party-2026", "Secret menu: chef-special-" + dig(2), "password: please ask the front desk",
			"Token: 5 left", "key: blue-bin-on-shelf-" + dig(2), "Secret ingredient: smoked-paprika", "api key: see the vault",
			"token=none", "password=reset-requested", "passcode hint: birthday", "secret=false", "auth=required"}[rng.IntN(12)]
	}},
	{"git sha", "", func() string { return hex(40) }},
	{"short sha", "", func() string { return "commit " + hex(7) }},
	{"sha256", "", func() string { return "sha256:" + hex(64) }},
	{"sha256", "", func() string { return hex(64) }},
	{"md5", "", func() string { return hex(32) }},
	{"etag", "", func() string { return `W/"` + hex(16) + `"` }},
	{"tracking number", "", func() string { return "1Z" + uan(16) }},
	{"tracking number", "", func() string { return dig(22) }},
	{"tracking number", "", func() string { return pick(upper, 2) + dig(9) + "GB" }},
	{"iban", "", func() string {
		return "DE" + dig(2) + " " + dig(4) + " " + dig(4) + " " + dig(4) + " " + dig(4) + " " + dig(2)
	}},
	{"iban", "", func() string { return "GB" + dig(2) + "NWBK" + dig(14) }},
	{"uuid", "", uuid},
	{"uuid", "", func() string { return strings.ToUpper(uuid()) }},
	{"ulid", "", func() string { return "01J" + pick("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23) }},
	{"object id", "", func() string { return hex(24) }},
	{"stripe object id", "", func() string {
		return []string{"ch_3", "pi_3", "cus_", "prod_", "price_1", "sub_1", "in_1", "cs_test_a1", "evt_1"}[rng.IntN(9)] + an(between(14, 24))
	}},
	{"firebase id", "", func() string { return "-N" + url64(18) }},
	{"date", "", func() string {
		return fmt.Sprintf("2026-%02d-%02dT%02d:%02d:00Z", between(1, 12), between(1, 28), between(0, 23), between(0, 59))
	}},
	{"email", "", func() string { return lan(6) + "." + lan(5) + "@example.com" }},
	{"phone", "", func() string { return "+44 20 " + dig(4) + " " + dig(4) }},
	{"money", "", func() string { return fmt.Sprintf("€%d.%02d", between(1, 9999), between(0, 99)) }},
	{"version", "", func() string {
		return fmt.Sprintf("v%d.%d.%d-rc.%d+build.%s", between(0, 9), between(0, 30), between(0, 99), between(1, 9), hex(7))
	}},
	{"image", "", func() string {
		return "ghcr.io/acme/storefront:" + fmt.Sprintf("1.%d.%d", between(0, 40), between(0, 9)) + "@sha256:" + hex(64)
	}},
	{"file path", "", func() string {
		return "invoices/2026/" + fmt.Sprintf("%02d", between(1, 12)) + "/INV-" + dig(5) + ".pdf"
	}},
	{"i18n key", "", func() string {
		return []string{"checkout.payment.cardNumber.label", "account.security.passwordChanged", "settings.apiKeys.emptyState",
			"auth.tokenExpired.message", "admin.secrets.rotateButton"}[rng.IntN(5)]
	}},
	{"identifier", "", func() string {
		return []string{"AbstractSingletonProxyFactoryBean", "OrderFulfillmentServiceImpl2", "getCustomerLifetimeValueByRegion",
			"PaymentIntentConfirmationHandler", "useInfiniteScrollPaginationV2"}[rng.IntN(5)]
	}},
	{"url", "", func() string {
		return "https://shop.example.com/search?q=" + []string{"red+shoes", "winter+coat", "api+key+holder", "token+ring"}[rng.IntN(4)] +
			"&page=" + dig(1) + "&sort=-price&utm_source=newsletter&utm_campaign=spring-2026"
	}},
	{"url", "", func() string {
		return "https://example.com/orders/SO-" + dig(4) + "?tab=items&session=spring-2026&key=shipping-address&ref=email"
	}},
	{"url", "", func() string {
		return "https://cdn.example.com/img/products/" + hex(12) + "/hero-1200x800.webp?v=" + dig(10)
	}},
	{"route", "", func() string {
		return []string{"/orders/SO-", "/products/sku-blk-xl-", "/account/security/password?step=", "/invite/team-members/",
			"/reset-password?sent=", "/settings/api-keys/", "/tokens/new?scope=", "/secrets/", "/blog/2026/11/how-to-rotate-your-api-key-"}[rng.IntN(9)] + dig(between(1, 4))
	}},
	{"route", "", func() string { return "/commits/" + hex(40) + "/files" }},
	{"route", "", func() string { return "/customers/" + uuid() + "/orders/ORD-" + uan(8) }},
	{"prose", "", func() string {
		return []string{
			"Please keep your password safe and never share it with anyone.",
			"The key to our success this quarter was faster delivery.",
			"Your access token expired; sign in again to continue.",
			"We use a secret sauce recipe from 1962 in every burger.",
			"Customer asked where to find the API key settings page.",
			"Reset password link sent to the customer at 10:42.",
			"Token gating lets members unlock the winter collection early.",
			"The secret to a great espresso is the grind size.",
			"Key account: Acme Corp, renewal due 2026-12-01.",
			"Keys were left at the front desk for pickup, locker 12.",
			"The customer forgot their password twice this week.",
			"Secret Santa exchange budget is 25 EUR per person.",
			"Add the API token in Settings > Integrations, then click Save.",
			"Use the spare key under the mat; code for the gate is on the card.",
			"Credentials for the supplier portal are with the finance team.",
		}[rng.IntN(15)]
	}},
	{"prose", "", func() string {
		return fmt.Sprintf("Order SO-%s shipped via DHL, tracking %s, ETA %d days; customer notes: leave at the side door.", dig(4), dig(10), between(1, 9))
	}},
	{"json text", "", func() string {
		return fmt.Sprintf(`{"orderId": "SO-%s", "items": %d, "token_count": %d, "keyboard": "US", "secret": false, "password_set": true}`, dig(4), between(1, 9), between(100, 4000))
	}},
	{"base64 image", "", func() string {
		return "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ" + std64(between(60, 200))
	}},
	{"address", "", func() string {
		return fmt.Sprintf("%d Key Street, Flat %d, Secretan Road, London", between(1, 300), between(1, 40))
	}},
	{"pagination cursor", "", func() string { return "next_page_token=" + url64(between(20, 30)) }},
}

type entry struct {
	Kind     string `json:"kind"`
	Provider string `json:"provider,omitempty"`
	Value    string `json:"value"`
}

func heldOutKind(name string) bool {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()%5 == 0
}

func write(dir, name string, es []entry) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, e := range es {
		if err := enc.Encode(e); err != nil {
			log.Fatal(err)
		}
	}
}

func split(kinds []kind, per, tuneN int) (tune, held []entry) {
	for _, k := range kinds {
		whole := heldOutKind(k.name)
		for i := 0; i < per; i++ {
			e := entry{Kind: k.name, Provider: k.provider, Value: k.gen()}
			if whole || i >= tuneN {
				held = append(held, e)
			} else {
				tune = append(tune, e)
			}
		}
	}
	return
}

func main() {
	dir := filepath.Join("testdata", "credentials")
	st, sh := split(secretKinds, 5, 3)
	bt, bh := split(businessKinds, 10, 5)
	write(dir, "secrets-tune.jsonl", st)
	write(dir, "secrets-heldout.jsonl", sh)
	write(dir, "business-tune.jsonl", bt)
	write(dir, "business-heldout.jsonl", bh)
	fmt.Printf("secrets: %d kinds, %d tune, %d held out; business: %d tune, %d held out\n",
		len(secretKinds), len(st), len(sh), len(bt), len(bh))
}
