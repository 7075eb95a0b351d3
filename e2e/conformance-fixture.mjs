// A stdio MCP server that offers what the MCP conformance suite's server scenarios call by
// name (tools, prompts and resources named `test_*` / `test://...`), so that
// e2e/conformance.sh can put it behind `toolshape serve --http` with unprefixed names.
// Written for toolshape from the scenario descriptions; it uses the SDK in e2e/node_modules.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

// A 1x1 PNG and a few bytes of WAV header: valid base64 is all the scenarios check.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WAV = Buffer.from("RIFF$\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0D\xac\0\0\x88X\x01\0\x02\0\x10\0data\0\0\0\0", "latin1").toString("base64");

const empty = { type: "object", properties: {} };
const tools = [
  ["test_simple_text", "Returns simple text", empty],
  ["test_image_content", "Returns an image", empty],
  ["test_audio_content", "Returns audio", empty],
  ["test_embedded_resource", "Returns an embedded resource", empty],
  ["test_multiple_content_types", "Returns text, image and resource", empty],
  ["test_tool_with_logging", "Sends log messages", empty],
  ["test_tool_with_progress", "Sends progress notifications", empty],
  ["test_error_handling", "Always fails with isError", empty],
  ["test_sampling", "Asks the client to sample", { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] }],
  ["test_elicitation", "Asks the client for input", { type: "object", properties: { message: { type: "string" } } }],
  ["test_reconnection", "Answers after a short wait", empty],
  ["test_elicitation_sep1034_defaults", "Asks for input with a default for every field", empty],
  ["test_elicitation_sep1330_enums", "Asks for input with every kind of enum", empty],
  ["test_touch_resource", "Reports a change of a resource to its subscribers", { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] }],
  ["test_subscriptions", "Lists the resources this server is subscribed to", empty],
  // The 2026-07-28 input_required scenarios. This server speaks the handshake protocol and
  // asks with ordinary requests; toolshape turns each into an `input_required` round for a
  // 2026-07-28 agent (the keys are toolshape's, not the ones the scenarios' own examples use).
  ["test_input_required_result_sampling", "Asks the client to sample once", empty],
  ["test_input_required_result_elicitation", "Asks the client for a name", empty],
  ["test_input_required_result_request_state", "Asks the client to confirm", empty],
  ["test_input_required_result_multi_round", "Asks the client twice, one after the other", empty],
  ["test_input_required_result_tampered_state", "Asks the client to confirm", empty],
  ["test_input_required_result_capabilities", "Asks for elicitation if it can, then for sampling", empty],
  // Needs sampling and cannot do without: a client that did not declare it gets -32021.
  ["test_missing_capability", "Asks the client to sample, and fails if it cannot", empty],
  [
    "json_schema_2020_12_tool",
    "A tool whose schema uses JSON Schema 2020-12 keywords",
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
  ],
].map(([name, description, inputSchema]) => ({ name, description, inputSchema }));

/** A form with a default value for every primitive type (SEP-1034). */
const DEFAULTS_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
};

/** A form with the five kinds of enum (SEP-1330): plain and titled, single and multiple
 * choice, and the legacy `enumNames`. */
const ENUMS_SCHEMA = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First" },
        { const: "value2", title: "Second" },
      ],
    },
    legacyEnum: { type: "string", enum: ["opt1", "opt2"], enumNames: ["Option one", "Option two"] },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First" },
          { const: "value2", title: "Second" },
        ],
      },
    },
  },
};

/** A sampling request with one user message. */
function sample(extra, text) {
  return extra.sendRequest(
    { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text } }], maxTokens: 100 } },
    CreateMessageResultSchema,
  );
}

/** A form elicitation asking for one required field. */
function elicit(extra, message, field, type) {
  return extra.sendRequest(
    {
      method: "elicitation/create",
      params: { message, requestedSchema: { type: "object", properties: { [field]: { type } }, required: [field] } },
    },
    ElicitResultSchema,
  );
}

const server = new Server(
  { name: "toolshape-conformance-fixture", version: "0.1.0" },
  {
    capabilities: {
      tools: {},
      prompts: {},
      resources: { subscribe: true },
      logging: {},
      completions: {},
    },
  },
);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
  const name = req.params.name;
  const resource = { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." };
  switch (name) {
    case "test_simple_text":
      return { content: [{ type: "text", text: "This is a simple text response for testing." }] };
    case "test_image_content":
      return { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
    case "test_audio_content":
      return { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] };
    case "test_embedded_resource":
      return { content: [{ type: "resource", resource }] };
    case "test_multiple_content_types":
      return {
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "resource", resource: { ...resource, uri: "test://mixed-content-resource" } },
        ],
      };
    case "test_tool_with_logging":
      for (const data of ["Tool execution started", "Tool processing data", "Tool execution completed"]) {
        await extra.sendNotification({ method: "notifications/message", params: { level: "info", data } });
        await sleep(50);
      }
      return { content: [{ type: "text", text: "Tool with logging executed successfully" }] };
    case "test_tool_with_progress": {
      const token = req.params._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (token !== undefined) {
          await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, total: 100 } });
        }
        await sleep(50);
      }
      return { content: [{ type: "text", text: String(token ?? "no token") }] };
    }
    case "test_error_handling":
      return { isError: true, content: [{ type: "text", text: "This tool intentionally returns an error for testing" }] };
    case "test_sampling": {
      const r = await extra.sendRequest(
        {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: req.params.arguments?.prompt ?? "" } }], maxTokens: 100 },
        },
        CreateMessageResultSchema,
      );
      return { content: [{ type: "text", text: `LLM response: ${r.content?.text ?? ""}` }] };
    }
    case "test_elicitation": {
      const r = await extra.sendRequest(
        {
          method: "elicitation/create",
          params: {
            message: req.params.arguments?.message ?? "Please provide your information",
            requestedSchema: { type: "object", properties: { username: { type: "string" }, email: { type: "string" } }, required: ["username"] },
          },
        },
        ElicitResultSchema,
      );
      return { content: [{ type: "text", text: `User response: ${JSON.stringify(r)}` }] };
    }
    case "test_input_required_result_sampling": {
      const r = await sample(extra, "What is the capital of France?");
      return { content: [{ type: "text", text: `LLM response: ${r.content?.text ?? ""}` }] };
    }
    case "test_input_required_result_elicitation": {
      const r = await elicit(extra, "What is your name?", "name", "string");
      return { content: [{ type: "text", text: `Hello, ${r.content?.name ?? "stranger"}!` }] };
    }
    case "test_input_required_result_request_state":
    case "test_input_required_result_tampered_state": {
      const r = await elicit(extra, "Please confirm", "ok", "boolean");
      return { content: [{ type: "text", text: `state-ok: ${JSON.stringify(r.content ?? {})}` }] };
    }
    case "test_input_required_result_multi_round": {
      const first = await elicit(extra, "Step 1: What is your name?", "name", "string");
      const second = await elicit(extra, "Step 2: What is your favorite color?", "color", "string");
      return { content: [{ type: "text", text: `${first.content?.name} likes ${second.content?.color}` }] };
    }
    case "test_input_required_result_capabilities": {
      let asked = "";
      try {
        asked = JSON.stringify((await elicit(extra, "What is your name?", "name", "string")).content);
      } catch {
        // Not offered by this client: sampling it is.
      }
      const r = await sample(extra, "Say hello");
      return { content: [{ type: "text", text: `elicited ${asked || "nothing"}; sampled ${r.content?.text ?? ""}` }] };
    }
    case "test_missing_capability": {
      const r = await sample(extra, "Say hello");
      return { content: [{ type: "text", text: `sampled ${r.content?.text ?? ""}` }] };
    }
    case "test_reconnection":
      await sleep(200);
      return { content: [{ type: "text", text: "Reconnection test completed" }] };
    case "test_elicitation_sep1034_defaults":
    case "test_elicitation_sep1330_enums": {
      const requestedSchema = name.endsWith("defaults") ? DEFAULTS_SCHEMA : ENUMS_SCHEMA;
      const r = await extra.sendRequest(
        { method: "elicitation/create", params: { message: "Please review these fields", requestedSchema } },
        ElicitResultSchema,
      );
      return { content: [{ type: "text", text: `Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}` }] };
    }
    case "test_touch_resource": {
      const uri = req.params.arguments?.uri;
      const told = subscribed.has(uri);
      if (told) await server.sendResourceUpdated({ uri });
      return { content: [{ type: "text", text: told ? `told the subscribers of ${uri}` : `nobody subscribed to ${uri}` }] };
    }
    case "test_subscriptions":
      return { content: [{ type: "text", text: JSON.stringify([...subscribed].sort()) }] };
    case "json_schema_2020_12_tool":
      return { content: [{ type: "text", text: JSON.stringify(req.params.arguments ?? {}) }] };
    default:
      throw new Error(`unknown tool ${name}`);
  }
});

const prompts = [
  { name: "test_simple_prompt", description: "A simple prompt" },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with arguments",
    arguments: [
      { name: "arg1", description: "First argument", required: true },
      { name: "arg2", description: "Second argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt with an embedded resource",
    arguments: [{ name: "resourceUri", description: "The resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "A prompt with an image" },
  // Asks the client for input while the prompt is being got (2026-07-28: `input_required`).
  { name: "test_input_required_result_prompt", description: "A prompt that asks the client for context" },
];

server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts }));

server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
  const a = req.params.arguments ?? {};
  switch (req.params.name) {
    case "test_simple_prompt":
      return { messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] };
    case "test_prompt_with_arguments":
      return {
        messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'` } }],
      };
    case "test_prompt_with_embedded_resource":
      return {
        messages: [
          { role: "user", content: { type: "resource", resource: { uri: a.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
          { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
        ],
      };
    case "test_input_required_result_prompt": {
      const answer = await elicit(extra, "What context should the prompt use?", "context", "string");
      const context = answer.action === "accept" ? answer.content?.context : `(${answer.action})`;
      return { messages: [{ role: "user", content: { type: "text", text: `Prompt with context: ${context}` } }] };
    }
    case "test_prompt_with_image":
      return {
        messages: [
          { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
          { role: "user", content: { type: "text", text: "Please analyze the image above." } },
        ],
      };
    default:
      throw new Error(`unknown prompt ${req.params.name}`);
  }
});

server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [
    { uri: "test://static-text", name: "Static text", mimeType: "text/plain" },
    { uri: "test://static-binary", name: "Static binary", mimeType: "image/png" },
    { uri: "test://watched-resource", name: "Watched resource", mimeType: "text/plain" },
    { uri: "test://input-required", name: "A resource that asks the client for a name", mimeType: "text/plain" },
  ],
}));

server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
  resourceTemplates: [{ uriTemplate: "test://template/{id}/data", name: "Template", mimeType: "application/json" }],
}));

server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
  const uri = req.params.uri;
  if (uri === "test://input-required") {
    // Asks the client for input while the resource is read.
    const answer = await elicit(extra, "Whose greeting is this?", "name", "string");
    const name = answer.action === "accept" ? answer.content?.name : `(${answer.action})`;
    return { contents: [{ uri, mimeType: "text/plain", text: `Greeting for ${name}` }] };
  }
  if (uri === "test://static-text") return { contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }] };
  if (uri === "test://static-binary") return { contents: [{ uri, mimeType: "image/png", blob: PNG }] };
  if (uri === "test://watched-resource") return { contents: [{ uri, mimeType: "text/plain", text: "Watched resource content" }] };
  const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (m) return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }] };
  const e = new Error(`Resource ${uri} not found`);
  e.code = -32002;
  throw e;
});

// Subscriptions are kept, so tests can see what a gateway in front subscribed upstream
// (`test_subscriptions`) and have a change reported (`test_touch_resource`).
const subscribed = new Set();
server.setRequestHandler(SubscribeRequestSchema, async (req) => {
  subscribed.add(req.params.uri);
  return {};
});
server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
  subscribed.delete(req.params.uri);
  return {};
});
server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [], total: 0, hasMore: false } }));

await server.connect(new StdioServerTransport());
