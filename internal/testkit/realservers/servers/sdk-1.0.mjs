// A server on @modelcontextprotocol/sdk 1.0.x (protocol 2024-11-05): the
// low-level Server with setRequestHandler, as servers of that time were
// written. A tool, a tool without arguments, a resource, a prompt, a tool
// that samples and one that sends progress.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema,
  ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "sdk-1.0-eras", version: "1.0.4" },
  { capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} } });

const num = { type: "number" };
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "add", description: "Adds two numbers", inputSchema: { type: "object", properties: { a: num, b: num }, required: ["a", "b"] } },
    { name: "now", description: "A tool without arguments", inputSchema: { type: "object", properties: {} } },
    { name: "sample", description: "Asks the client's model", inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] } },
    { name: "progress", description: "Sends three progress notifications", inputSchema: { type: "object", properties: {} } },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const args = req.params.arguments ?? {};
  switch (req.params.name) {
    case "add":
      return { content: [{ type: "text", text: String(args.a + args.b) }] };
    case "now":
      return { content: [{ type: "text", text: "it is now" }] };
    case "sample": {
      const res = await server.createMessage({
        messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }], maxTokens: 100,
      });
      return { content: [{ type: "text", text: "the model said: " + res.content.text }] };
    }
    case "progress": {
      const token = req.params._meta?.progressToken;
      for (let i = 1; i <= 3 && token !== undefined; i++) {
        await server.notification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: 3 } });
      }
      return { content: [{ type: "text", text: "done in 3 steps" }] };
    }
  }
  throw new Error("unknown tool " + req.params.name);
});

server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: "eras://readme", name: "readme", mimeType: "text/plain" }],
}));
server.setRequestHandler(ReadResourceRequestSchema, async (req) => ({
  contents: [{ uri: req.params.uri, mimeType: "text/plain", text: "hello from sdk 1.0" }],
}));
server.setRequestHandler(ListPromptsRequestSchema, async () => ({
  prompts: [{ name: "greet", description: "Greets someone", arguments: [{ name: "name", required: true }] }],
}));
server.setRequestHandler(GetPromptRequestSchema, async (req) => ({
  messages: [{ role: "user", content: { type: "text", text: "Hello, " + (req.params.arguments?.name ?? "?") } }],
}));

await server.connect(new StdioServerTransport());
console.error("sdk-1.0-eras ready on stdio");
