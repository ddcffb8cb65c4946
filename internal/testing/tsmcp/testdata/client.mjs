// Test-only MCP client built on the official TypeScript SDK. It spawns the
// server named in the plan (argv[2], JSON), lists its tools, makes the
// planned calls and prints one JSON object on stdout:
//   {"tools":[...], "results":[{"name":..., "result":..., "error":...}]}
// Any SDK failure (listTools throwing, e.g. "can't resolve reference")
// exits 1 with the message on stderr.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const plan = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({ command: plan.command, args: plan.args, env: plan.env, stderr: "inherit" });
const client = new Client({ name: "kitsoki-ts-test", version: "0.0.0" });
try {
  await client.connect(transport);
  const listed = await client.listTools();
  const results = [];
  for (const call of plan.calls ?? []) {
    try {
      const result = await client.callTool({ name: call.name, arguments: call.arguments });
      results.push({ name: call.name, result });
    } catch (e) {
      results.push({ name: call.name, error: String(e && e.message || e) });
    }
  }
  process.stdout.write(JSON.stringify({ tools: listed.tools, results }) + "\n");
  await client.close();
} catch (e) {
  process.stderr.write("ts-sdk client: " + (e && e.stack || e) + "\n");
  try { await client.close(); } catch {}
  process.exit(1);
}
