// A server on @modelcontextprotocol/sdk 1.x, the newest (protocol 2025-11-25): the
// McpServer with registerTool/registerResource/registerPrompt (titles and
// structured output arrived with 2025-06-18). A tool with an outputSchema,
// a tool without arguments, a resource, a prompt, a tool that samples and
// one that sends progress.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "sdk-latest-eras", version: "latest" }, { capabilities: { logging: {} } });

server.registerTool("add", { title: "Add", description: "Adds two numbers",
  inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
  async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }));
server.registerTool("now", { title: "Now", description: "A tool without arguments" },
  async () => ({ content: [{ type: "text", text: "it is now" }] }));
server.registerTool("sample", { description: "Asks the client's model", inputSchema: { prompt: z.string() } }, async ({ prompt }) => {
  const res = await server.server.createMessage({
    messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100,
  });
  return { content: [{ type: "text", text: "the model said: " + res.content.text }] };
});
server.registerTool("progress", { description: "Sends three progress notifications" }, async (extra) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= 3 && token !== undefined; i++) {
    await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: 3, message: `step ${i} of 3` } });
  }
  return { content: [{ type: "text", text: "done in 3 steps" }] };
});
server.registerResource("readme", "eras://readme", { title: "Read me", mimeType: "text/plain" },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "hello from the newest sdk" }] }));
server.registerPrompt("greet", { title: "Greet", description: "Greets someone", argsSchema: { name: z.string() } },
  ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: "Hello, " + name } }] }));

await server.connect(new StdioServerTransport());
console.error("sdk-latest-eras ready on stdio");
