import { Stream as AnthropicStream } from '@anthropic-ai/sdk/streaming';
import { Stream as OpenAiStream } from 'openai/streaming';
import { readSse } from '../src/llm/sse.js';

// What reading a provider's stream costs per token (docs/decisions/0070): the same bytes, a chat-completions
// stream of N chunks and an Anthropic Messages stream of N deltas, each delivered in network-sized pieces, read
// by the SDK's own Stream (as the adapters did before 0070) and by llm/sse.ts with the adapter's JSON.parse, in
// one process, interleaved over rounds. Prints CPU time per token (median over the rounds, and the spread).
//   npx tsx apps/server/bench/sse-read-cost.ts [tokens] [rounds]

const tokens = Number(process.argv[2] ?? 40_000);
const rounds = Number(process.argv[3] ?? 7);

const openAiChunk = (i: number) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_763_700_000,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta: { content: `token${i} ` }, logprobs: null, finish_reason: null }],
    usage: null,
  })}\n\n`;
const anthropicDelta = (i: number) =>
  `event: content_block_delta\ndata: ${JSON.stringify({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: `token${i} ` },
  })}\n\n`;

/** The stream's bytes, one token per network read, as a provider streaming at a human pace delivers them. */
function pieces(event: (i: number) => string, end: string): Uint8Array[] {
  const encoder = new TextEncoder();
  return [...Array.from({ length: tokens }, (_, i) => encoder.encode(event(i))), encoder.encode(end)];
}
const openAiBytes = pieces(openAiChunk, 'data: [DONE]\n\n');
const anthropicBytes = pieces(anthropicDelta, 'event: message_stop\ndata: {"type":"message_stop"}\n\n');

const response = (chunks: Uint8Array[]) => {
  let next = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk) controller.enqueue(chunk);
        else controller.close();
      },
    }),
  );
};

const readers: Record<string, (sink: (text: string) => void) => Promise<void>> = {
  'OpenAI SDK Stream': async (sink) => {
    const stream = OpenAiStream.fromSSEResponse<{ choices: { delta: { content?: string } }[] }>(
      response(openAiBytes),
      new AbortController(),
    );
    for await (const chunk of stream) sink(chunk.choices[0]?.delta.content ?? '');
  },
  'OpenAI, llm/sse.ts': (sink) =>
    readSse(response(openAiBytes), (sse) => {
      if (sse.data.startsWith('[DONE]')) return;
      const chunk = JSON.parse(sse.data) as { choices: { delta: { content?: string } }[] };
      sink(chunk.choices[0]?.delta.content ?? '');
    }),
  'Anthropic SDK Stream': async (sink) => {
    const stream = AnthropicStream.fromSSEResponse<{ type: string; delta?: { text?: string } }>(
      response(anthropicBytes),
      new AbortController(),
    );
    for await (const event of stream) if (event.type === 'content_block_delta') sink(event.delta?.text ?? '');
  },
  'Anthropic, llm/sse.ts': (sink) =>
    readSse(response(anthropicBytes), (sse) => {
      if (sse.event === null || sse.event === 'ping') return;
      const event = JSON.parse(sse.data) as { type: string; delta?: { text?: string } };
      if (event.type === 'content_block_delta') sink(event.delta?.text ?? '');
    }),
};

const results = new Map<string, number[]>();
for (let round = 0; round <= rounds; round += 1) {
  for (const [name, read] of Object.entries(readers)) {
    let count = 0;
    const before = process.cpuUsage();
    await read(() => (count += 1));
    const cpu = process.cpuUsage(before);
    if (count !== tokens) throw new Error(`${name}: read ${count} of ${tokens} tokens`);
    // Round 0 warms the code up and is not counted.
    if (round > 0) results.set(name, [...(results.get(name) ?? []), ((cpu.user + cpu.system) / tokens) * 1000]);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(`${tokens} tokens, one per read, ${rounds} rounds (CPU ns per token: median, min-max)`);
for (const [name, values] of results) {
  const spread = `${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))}`;
  console.log(`${name.padEnd(24)} ${String(Math.round(median(values))).padStart(7)}  ${spread}`);
}
