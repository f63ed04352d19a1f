// Drive `insomnia-web mcp` with the official TypeScript MCP client.
// Usage: node ts_client.mjs CALLS_JSON COMMAND [ARG...]
// Lists the tools, then makes each call of CALLS_JSON ([{"name": ..., "arguments": {...}}])
// and prints one JSON object: {"tools": [...], "results": [...]}. A call the client itself
// rejects (for instance structured content that fails the tool's output schema) is reported
// as {"threw": message} instead of a result.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [callsJson, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "pipe" });
const client = new Client({ name: "ts-sdk-check", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const results = [];
for (const call of JSON.parse(callsJson)) {
  try {
    results.push(await client.callTool(call));
  } catch (error) {
    results.push({ threw: String(error && error.message ? error.message : error) });
  }
}
await client.close();
process.stdout.write(JSON.stringify({ tools: tools.map((t) => t.name), results }));
