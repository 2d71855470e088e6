// A server on @modelcontextprotocol/sdk 1.12.x (protocol 2025-03-26): the
// high-level McpServer with server.tool/resource/prompt and zod shapes, as
// servers of that time were written. A tool, a tool without arguments, a
// resource, a prompt, a tool that samples, one that sends progress (with
// the message 2025-03-26 added) and one with annotations (new in 2025-03-26).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "sdk-1.12-eras", version: "1.12.3" }, { capabilities: { logging: {} } });

server.tool("add", "Adds two numbers", { a: z.number(), b: z.number() },
  async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
server.tool("now", "A tool without arguments", { readOnlyHint: true },
  async () => ({ content: [{ type: "text", text: "it is now" }] }));
server.tool("sample", "Asks the client's model", { prompt: z.string() }, async ({ prompt }) => {
  const res = await server.server.createMessage({
    messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100,
  });
  return { content: [{ type: "text", text: "the model said: " + res.content.text }] };
});
server.tool("progress", "Sends three progress notifications", async (extra) => {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= 3 && token !== undefined; i++) {
    await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: 3, message: `step ${i} of 3` } });
  }
  return { content: [{ type: "text", text: "done in 3 steps" }] };
});
server.resource("readme", "eras://readme", { mimeType: "text/plain" },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "hello from sdk 1.12" }] }));
server.prompt("greet", "Greets someone", { name: z.string() },
  ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: "Hello, " + name } }] }));

await server.connect(new StdioServerTransport());
console.error("sdk-1.12-eras ready on stdio");
