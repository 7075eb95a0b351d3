#!/usr/bin/env python3
"""A loopback stand-in for three model APIs (Anthropic Messages, OpenAI Responses, Gemini
generateContent): enough for a client CLI to call one MCP tool and hand its result back.

Every request body is appended to $FAKE_API_LOG as a JSON line. The first turn asks for the
MCP tool whose name contains $FAKE_API_TOOL; a turn that carries a tool result is answered
with "done", which ends the CLI's run. Usage: fake_model_api.py PORT
"""
from __future__ import annotations

import json
import os
import sys
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = os.environ.get("FAKE_API_LOG", "model-requests.jsonl")
WANT = os.environ.get("FAKE_API_TOOL", "echo")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def read_body(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {"raw": raw.decode("utf-8", "replace")}

    def send_json(self, obj):
        data = json.dumps(obj).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_events(self, events):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        for name, data in events:
            if name:
                self.wfile.write(f"event: {name}\n".encode())
            self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()
        self.close_connection = True

    def do_GET(self):
        self.send_json({"data": [], "models": []})

    def do_POST(self):
        body = self.read_body()
        with open(LOG, "a") as log:
            log.write(json.dumps({"path": self.path, "body": body}) + "\n")
        if "/v1/messages" in self.path:
            self.anthropic(body)
        elif self.path.endswith("/responses"):
            self.openai(body)
        elif "generatecontent" in self.path.lower():
            self.gemini(body, stream="stream" in self.path.lower())
        else:
            self.send_json({})

    def anthropic(self, body):
        if "count_tokens" in self.path:
            return self.send_json({"input_tokens": 10})
        messages = body.get("messages") or [{}]
        last = messages[-1].get("content")
        answered = isinstance(last, list) and any(b.get("type") == "tool_result" for b in last)
        tool = next((t["name"] for t in body.get("tools", []) if WANT in t.get("name", "")), None)
        message = {"id": "msg_" + uuid.uuid4().hex[:12], "type": "message", "role": "assistant", "model": "fake",
                   "content": [], "stop_reason": None, "stop_sequence": None,
                   "usage": {"input_tokens": 1, "output_tokens": 1}}
        if not body.get("stream"):
            message.update(content=[{"type": "text", "text": "done"}], stop_reason="end_turn")
            return self.send_json(message)
        if tool and not answered:
            block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:12], "name": tool, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": "{}"}
            stop = "tool_use"
        else:
            block, delta, stop = {"type": "text", "text": ""}, {"type": "text_delta", "text": "done"}, "end_turn"
        self.send_events([
            ("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 1}}),
            ("message_stop", {"type": "message_stop"}),
        ])

    def openai(self, body):
        answered = any(isinstance(i, dict) and i.get("type") == "function_call_output" for i in body.get("input", []))
        tools = []
        for t in body.get("tools", []):
            if isinstance(t, dict) and t.get("type") == "namespace":
                tools += [(t.get("name"), inner.get("name", "")) for inner in t.get("tools", [])]
            elif isinstance(t, dict):
                tools.append((None, t.get("name", "")))
        found = next(((ns, name) for ns, name in tools if WANT in name), None)
        if found and not answered:
            item = {"type": "function_call", "id": "fc_1", "call_id": "call_" + uuid.uuid4().hex[:8],
                    "name": found[1], "arguments": "{}", "status": "completed"}
            if found[0]:
                item["namespace"] = found[0]
        else:
            item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
        usage = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                 "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}
        response = {"id": "resp_" + uuid.uuid4().hex[:12], "object": "response", "created_at": int(time.time()),
                    "status": "completed", "model": body.get("model", "fake"), "output": [item], "usage": usage}
        self.send_events([
            ("response.created", {"type": "response.created", "response": dict(response, status="in_progress", output=[])}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": response}),
        ])

    def gemini(self, body, stream):
        answered = any("functionResponse" in p for c in body.get("contents", []) for p in c.get("parts", []))
        names = [d.get("name", "") for t in body.get("tools", []) for d in t.get("functionDeclarations", [])]
        tool = next((n for n in names if WANT in n), None)
        part = {"functionCall": {"name": tool, "args": {}}} if tool and not answered else {"text": "done"}
        chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}}
        if stream:
            return self.send_events([(None, chunk)])
        self.send_json(chunk)


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
