import type { TokenizerId } from './types';

/** Tokens a chat API adds around message text: per message, and once per request. */
export interface ChatOverhead {
  perMessage: number;
  perRequest: number;
  /** The rule in words, for documentation and hovers. */
  rule: string;
}

/**
 * cl100k-era chat format, OpenAI cookbook's num_tokens_from_messages (gpt-3.5-turbo-0613, gpt-4): its
 * `tokens_per_message = 3` plus the role it encodes with the content (one token), so 4 per message. Checked
 * against a billed capture (gpt-4: 105 for two messages and one tool, test/fixtures/captures).
 */
const OPENAI_CL100K: ChatOverhead = {
  perMessage: 4,
  perRequest: 3,
  rule: "OpenAI cl100k: 3 tokens per message + the role (1) + 3 priming the reply (OpenAI cookbook's num_tokens_from_messages)",
};
/**
 * o200k chat format (gpt-4o on): <|im_start|>role<|im_sep|>…<|im_end|> is 4 per message, and
 * <|im_start|>assistant<|im_sep|> primes the reply. Checked against a billed capture (14 tokens for
 * one 7-token user message, test/fixtures/captures) and gpt-tokenizer's encodeChat.
 */
const OPENAI_O200K: ChatOverhead = {
  perMessage: 4,
  perRequest: 3,
  rule: 'OpenAI o200k: 4 tokens per message (<|im_start|>role<|im_sep|>…<|im_end|>) + 3 priming the reply',
};
const NONE: ChatOverhead = { perMessage: 0, perRequest: 0, rule: 'no published rule: message text only' };

/** Per tokenizer family; the role name is counted as one token, as it is for system/user/assistant. */
export const CHAT_OVERHEAD: Record<TokenizerId, ChatOverhead> = {
  o200k_base: OPENAI_O200K,
  cl100k_base: OPENAI_CL100K,
  llama3: {
    perMessage: 5,
    perRequest: 5,
    rule: 'Llama 3: <|start_header_id|>role<|end_header_id|>\\n\\n…<|eot_id|> = 5 per message; <|begin_of_text|> + assistant header = 5 per request',
  },
  qwen2: {
    perMessage: 5,
    perRequest: 3,
    rule: 'ChatML: <|im_start|>role\\n…<|im_end|>\\n = 5 per message; <|im_start|>assistant\\n = 3 per request',
  },
  'deepseek-v3': {
    perMessage: 1,
    perRequest: 2,
    rule: 'DeepSeek-V3: one <｜User｜>/<｜Assistant｜> marker per message; BOS + <｜Assistant｜> per request',
  },
  mistral: {
    perMessage: 2,
    perRequest: 1,
    rule: 'Mistral: [INST] … [/INST] (or </s> after an answer) = 2 per message; <s> per request',
  },
  tekken: {
    perMessage: 2,
    perRequest: 1,
    rule: 'Mistral (Tekken): [INST]…[/INST] (or </s> after an answer) = 2 per message; <s> per request',
  },
  gemma3: {
    perMessage: 5,
    perRequest: 4,
    rule: 'Gemma: <start_of_turn>role\\n…<end_of_turn>\\n = 5 per message; <bos> + <start_of_turn>model\\n = 4 per request',
  },
  claude: NONE,
  gemini: NONE,
  approximate: NONE,
};

/** Input tokens the API bills for `messageCount` messages whose text totals `contentTokens`. */
export function withChatOverhead(contentTokens: number, messageCount: number, tokenizer: TokenizerId): number {
  if (messageCount === 0) return contentTokens;
  const overhead = CHAT_OVERHEAD[tokenizer];
  return contentTokens + overhead.perMessage * messageCount + overhead.perRequest;
}
