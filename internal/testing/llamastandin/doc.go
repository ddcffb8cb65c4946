// Command llamastandin owns a STAND-IN for llama.cpp's llama-server (the real
// server and a GGUF model cannot exist on test machines), speaking only the
// HTTP API kitsoki uses. It must not be shipped or run outside tests.
//
// The API it serves:
//
//	GET  /health, /v1/health   503 {"error":{"code":503,"message":"Loading model",...}}
//	                           while "loading", then 200 {"status":"ok"}
//	POST /v1/chat/completions  schema-shaped JSON when response_format carries a
//	                           json_schema (nested OpenAI form), plain text otherwise
//	POST /v1/embeddings        deterministic unit vectors (only with --embeddings)
//	GET  /v1/models
//
// It takes llama-server's flags (-m, --host, --port, --parallel,
// --embeddings, --pooling), refuses a missing model file like the real
// server, and exits 0 on SIGTERM. Test knobs (environment):
//
//	STANDIN_LOAD_MS=n          time spent "loading" (503) before healthy (default 150)
//	STANDIN_NEVER_HEALTHY=1    stay at 503 forever
//	STANDIN_IGNORE_TERM=1      ignore SIGTERM (needs SIGKILL)
//	STANDIN_RECORD=file        append one JSON line per event: start (argv,
//	                           LD_LIBRARY_PATH, pid), each request, signals
//	STANDIN_REQUIRE_LIB=name   fail like the dynamic loader unless name is
//	                           readable in a directory of LD_LIBRARY_PATH
//	STANDIN_EMBED_DIM=n        embedding size (default 768)
//	STANDIN_CHAT_TEXT=s        the plain-text answer (default "stand-in answer")
//	STANDIN_CTX=n              the model's context in tokens, divided among the
//	                           --parallel slots; a longer prompt (4 bytes a
//	                           token) gets llama-server's 400 (default unlimited)
package main
