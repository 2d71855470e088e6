package rules

// The rules of the two official extensions a server may declare under
// capabilities.extensions: Skills (io.modelcontextprotocol/skills,
// SEP-2640; modelcontextprotocol/ext-skills, specification/stable/
// skills.mdx, written against 2026-07-28) and MCP Apps
// (io.modelcontextprotocol/ui, SEP-1865; modelcontextprotocol/ext-apps,
// specification/2026-01-26/apps.mdx, which any revision may negotiate).
// Text quotes the extension's sentence (Markdown emphasis and links
// dropped); a rule resting on a declared type names it in Schema.
// A server that does not declare the extension (or has no tool with a UI)
// skips them.

// The extensions' pages (URL finds their text).
const (
	skillsSpec = "extensions/skills"
	appsSpec   = "extensions/apps"
)

var tableExt = []Rule{
	// skills: the Skills extension, on 2026-07-28.
	{ID: "skills.resources-capability", Group: "skills", Level: Must, Section: skillsSpec + "#capability-negotiation", Since: v0728,
		Text: "A server declaring this extension therefore MUST also declare the `resources` capability.",
		Fix:  `declare "resources":{} beside "extensions":{"io.modelcontextprotocol/skills":{…}}: skill files are read with resources/read`},
	{ID: "skills.entry-shape", Group: "skills", Level: Must, Section: skillsSpec + "#resources", Since: v0728,
		Text: "`resources` is REQUIRED on every skill entry and takes one of two forms: an array of `SkillResource` objects enumerating the skill's files (`SKILL.md` and every supporting file), or the string `\"dynamic\"`. When `resources` is an array, it MUST be complete. It lists every file of the skill, each exactly once, including an entry whose `uri` equals the skill's top-level `uri`. Each `uri` MUST be the skill's `SKILL.md` or a file within the skill's directory.",
		Fix:  `answer skills/list with entries {"uri":"skill://name/SKILL.md","frontmatter":{"name":…,"description":…},"resources":[{"uri":…,"digest":"sha256:<64 hex>","size":…},…]} listing SKILL.md and every file under its directory once (or "resources":"dynamic")`},
	{ID: "skills.digests", Group: "skills", Level: Must, Section: skillsSpec + "#resources", Since: v0728,
		Text: "Each entry MUST carry `size`, the length in bytes of the file's raw content (the same bytes the `digest` covers); the digest is the \"SHA-256 digest of the file's raw bytes, formatted as `sha256:{hex}`\": resources/read of each listed file returns exactly those bytes.",
		Fix:  "compute each file's digest and size from the bytes resources/read serves (after any templating), or mark a generated skill \"resources\":\"dynamic\"",
	},
	{ID: "skills.uri-name", Group: "skills", Level: Must, Section: skillsSpec + "#frontmatter", Since: v0728,
		Text: "The final `<skill-path>` segment of the entry's `uri` MUST equal `frontmatter.name`, per Resource Mapping.",
		Fix:  "serve the skill named refunds at …/refunds/SKILL.md (rename the directory or the frontmatter's name so they agree)"},
	{ID: "skills.uri-scheme", Group: "skills", Level: Should, Section: skillsSpec + "#resource-mapping", Since: v0728,
		Text: "Each file within a skill directory is exposed as an MCP resource. Servers SHOULD use the `skill://` URI scheme.",
		Fix:  "address skill files as skill://<skill-path>/<file-path> unless your domain has a scheme of its own"},
	{ID: "skills.get", Group: "skills", Level: Must, Section: skillsSpec + "#getting-a-skill", Since: v0728,
		Text: "A server MUST answer for every skill it serves, whether or not that skill appears in its `skills/list` result. If the URI does not identify a skill the server serves, the server MUST return error `-32602` (Invalid params).",
		Fix:  "answer skills/get {uri} with {\"skill\":<the listing's entry>} for each skill, and -32602 for a URI that names none"},
	{ID: "skills.directory-read", Group: "skills", Level: Must, Section: skillsSpec + "#reading-directories", Since: v0728,
		Text: "A server that declares `directoryRead` MUST support the method for every directory within the skill namespaces it serves as individual files. If the URI does not exist, or exists but is not a directory resource, the server MUST return error `-32602` (Invalid params).",
		Fix:  `answer resources/directory/read of a skill's root (its SKILL.md URI without /SKILL.md) with {"resources":[its direct children]}, and of a file with -32602; or drop directoryRead`},

	// apps: MCP Apps, on every revision.
	{ID: "apps.resource-uri", Group: "apps", Level: Must, Section: appsSpec + "#content-requirements", Since: first,
		Text: "URI MUST start with `ui://` scheme (the UI resource a tool's `_meta.ui.resourceUri` names).",
		Fix:  `name the App's resource ui://<server>/<page>.html and point the tool's "_meta":{"ui":{"resourceUri":…}} at it`},
	{ID: "apps.tool-meta", Group: "apps", Level: Must, Section: appsSpec + "#resource-discovery", Schema: "McpUiToolMeta", Since: first,
		Text: "A tool's `_meta.ui` is an McpUiToolMeta: `resourceUri` a string, `visibility` an array of \"model\" and \"app\".",
		Fix:  `write "_meta":{"ui":{"resourceUri":"ui://…","visibility":["model","app"]}} (leave visibility out for both)`},
	{ID: "apps.resource-exists", Group: "apps", Level: Must, Section: appsSpec + "#behavior", Since: first,
		Text: "Resource MUST exist on the server (resources/read of a tool's `_meta.ui.resourceUri` returns it; Servers MAY omit UI-only resources from `resources/list`).",
		Fix:  "serve the UI resource the tool names with resources/read (register it, or fix the tool's resourceUri)"},
	{ID: "apps.resource-mime", Group: "apps", Level: Must, Section: appsSpec + "#content-requirements", Since: first,
		Text: "`mimeType` MUST be `text/html;profile=mcp-app` (other types reserved for future extensions). Content MUST be provided via either `text` (string) or `blob` (base64-encoded).",
		Fix:  `read the UI resource as {"contents":[{"uri":"ui://…","mimeType":"text/html;profile=mcp-app","text":"<!DOCTYPE html>…"}]}`},
	{ID: "apps.listed-mime", Group: "apps", Level: Should, Section: appsSpec + "#ui-resource-format", Since: first,
		Text: "MIME type of the UI content: SHOULD be `text/html;profile=mcp-app` for HTML-based UIs in the initial MVP (the UI resource as resources/list lists it).",
		Fix:  `list the UI resource with "mimeType":"text/html;profile=mcp-app"`},
	{ID: "apps.csp-shape", Group: "apps", Level: Must, Section: appsSpec + "#ui-resource-format", Schema: "UIResourceMeta", Since: first,
		Text: "A UI resource's `_meta.ui` is a UIResourceMeta: `csp` an McpUiResourceCsp (connectDomains, resourceDomains, frameDomains, baseUriDomains: arrays of origins; wasmUnsafeEval a boolean), `permissions` of camera, microphone, geolocation, clipboardWrite each an object, `domain` a string, `prefersBorder` a boolean.",
		Fix:  `declare origins only, one per string ("connectDomains":["https://api.example.com"]): a space, ';' or quote would add CSP directives of its own`},
}
