// A provider's prompt cache as the providers document it, for the fake servers: prefixes of the prompt are cached
// and later requests that start with the same prefix read it instead of paying for it again. The token counts are a
// stand-in tokenizer (four characters a token and a few of framing per block); what matters is that the fakes bill
// as the providers do, so the server's stored cost can be checked against the fake's bill.

/** One block of a prompt in order (system blocks, then each message's content blocks). */
export interface PromptBlock {
  /** Who the block belongs to and its text: the key of the prefix it ends. */
  key: string;
  tokens: number;
  /** Anthropic: the block carries `cache_control` (a breakpoint). */
  breakpoint: boolean;
}

export const fakeTokens = (text: string): number => Math.ceil(text.length / 4) + 3;

/** Prefixes cached so far, by model (and OpenAI's prompt_cache_key). */
export class PromptCache {
  private readonly entries = new Set<string>();

  constructor(
    /** The shortest prefix the provider caches. */
    private readonly minTokens: number,
  ) {}

  /** Forgets every entry (the 5-minute lifetime passed). */
  clear(): void {
    this.entries.clear();
  }

  private keys(scope: string, blocks: readonly PromptBlock[]): { key: string; tokens: number }[] {
    let key = scope;
    let tokens = 0;
    return blocks.map((b) => {
      key += `\u0000${b.key}`;
      tokens += b.tokens;
      return { key, tokens };
    });
  }

  /**
   * Anthropic: each breakpoint looks back at most 20 blocks for the longest cached prefix; the prefix up to the
   * last breakpoint long enough to cache is written (what was not read of it is billed as a cache write).
   */
  anthropic(scope: string, blocks: readonly PromptBlock[]): { input: number; write: number; read: number } {
    const prefixes = this.keys(scope, blocks);
    const total = prefixes.at(-1)?.tokens ?? 0;
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let read = 0;
    for (const b of breakpoints) {
      for (let j = b; j >= Math.max(0, b - 19); j -= 1) {
        const prefix = prefixes[j];
        if (prefix && this.entries.has(prefix.key)) {
          read = Math.max(read, prefix.tokens);
          break;
        }
      }
    }
    let written = read;
    for (const b of breakpoints) {
      const prefix = prefixes[b];
      if (!prefix || prefix.tokens < this.minTokens) continue;
      this.entries.add(prefix.key);
      written = Math.max(written, prefix.tokens);
    }
    const write = written - read;
    return { input: total - read - write, write, read };
  }

  /**
   * OpenAI: automatic for prompts of 1,024 tokens or more; the longest cached prefix (ending at a message) is read,
   * counted in steps of 128 tokens, and every prefix of the prompt long enough is cached for the next request.
   */
  openai(scope: string, blocks: readonly PromptBlock[]): { prompt: number; cached: number } {
    const prefixes = this.keys(scope, blocks);
    const prompt = prefixes.at(-1)?.tokens ?? 0;
    let cached = 0;
    for (const prefix of prefixes) {
      if (this.entries.has(prefix.key)) cached = Math.max(cached, prefix.tokens);
    }
    cached = cached >= this.minTokens ? Math.floor(cached / 128) * 128 : 0;
    for (const prefix of prefixes) if (prefix.tokens >= this.minTokens) this.entries.add(prefix.key);
    return { prompt, cached };
  }
}
