import type { ChatCompletionRules } from '../chat-progress.js';
import type { Condition } from '../common.js';
import type { StudyPathways } from './pathways.js';

/**
 * A block of readable study text: a heading, paragraphs and optional bullet lists; or Markdown alone
 * (docs/decisions/0052), which the web renders without HTML, images or links other than http(s) and mailto.
 */
/** The most columns a block's table has (the schema's limit; the editor's "Add column" stops there). */
export const TABLE_MAX_COLUMNS = 6;

export interface ContentBlock {
  /** Markdown (CommonMark with GFM tables), instead of the other fields; the renderer loads on demand. */
  markdown?: string;
  heading?: string;
  paragraphs?: string[];
  bullets?: string[];
  /**
   * A small table, e.g. the risk panel (per 100,000): 1 to 6 columns, each row one cell per column; the first
   * cell of a row is its heading (docs/decisions/0062).
   */
  table?: { caption: string; columns: string[]; rows: string[][] };
}

export interface StaticSection {
  id: string;
  title: string;
  /** Minimum seconds on screen before the button is enabled (spec section 9). */
  minSeconds: number;
  blocks: ContentBlock[];
}

/** One condition a study declares: its id and what researchers call it. */
export interface ConditionDeclaration {
  id: Condition;
  label: string;
}

export interface ConditionContent {
  /** Short topic name shown on the static intro, e.g. 'the MMR vaccine'. */
  topic: string;
  sections: StaticSection[];
}

/**
 * The chat model's settings for one condition; each one absent is the deployment's (LLM_MODEL,
 * LLM_MAX_TOKENS, LLM_THINKING_BUDGET; the provider's temperature). Stored versions from before these
 * settings have none (docs/decisions/0032).
 */
export interface ChatModelSettings {
  /** The provider's model name, e.g. 'claude-sonnet-4-5'. */
  model?: string;
  /**
   * The same provider's model that answers when this one is overloaded (529) or has failed LLM_FALLBACK_AFTER
   * times in a reply (docs/decisions/0076); recorded on each reply it writes. Priced from the price table.
   */
  fallbackModel?: string;
  /** 0-2; sent only with thinking off (Anthropic accepts no temperature with extended thinking). */
  temperature?: number;
  /** Tokens of the visible reply; the experiment's reply-token limit still caps it. */
  replyTokens?: number;
  /** Extended-thinking tokens (Anthropic); 0 turns thinking off. */
  thinkingBudget?: number;
  /**
   * What the model costs, for a model the deployment has no price for (a local model, a provider's own name);
   * it wins over the deployment's price table (LLM_PRICES). Without one, a model with no known price is refused.
   */
  price?: ModelPrice;
}

/**
 * A model's price in USD per million tokens, per kind of token billed (docs/decisions/0073, 0076): input not
 * read from the provider's prompt cache, output, and the prompt cache's writes and reads. A cache price not given
 * is the provider's documented rule applied to the input price (server: llm/pricing.ts cachePrices).
 */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Input written to the prompt cache (Anthropic: 1.25 x input for 5-minute entries). */
  cacheWritePerMTok?: number;
  /** Input read from the prompt cache (Anthropic: 0.1 x input; OpenAI: the model's cached-input price). */
  cacheReadPerMTok?: number;
}

export interface ConditionChat {
  /** System prompt for the chat model in this condition. */
  systemPrompt: string;
  /** What the scripted offline model says: an opening, replies drawn from the study content, a closing. */
  scripted: { opening: string; replies: string[]; closing: string };
  /** The chat model's settings in this condition (server only: not in the participant view). */
  settings?: ChatModelSettings;
}

/** One option of a choice question: the value stored in the answers and the label participants read. */
export interface ChoiceOption {
  value: string;
  label: string;
}

/**
 * A survey question as data: its answer key (the key in the stored responses), its wording, and either
 * options to choose from or a 1-7 scale with labels at both ends and the middle.
 */
export interface SurveyQuestion {
  key: string;
  wording: string;
  type: 'choice' | 'scale';
  /** The choices, for type 'choice'. */
  options?: ChoiceOption[];
  /** The labels at 1, 4 and 7, for type 'scale'. */
  labels?: { min: string; mid: string; max: string };
  required: boolean;
}

/**
 * Everything a study says to participants, in one place (DESIGN.md convention 12):
 * a second study is a new definition, not a code change.
 */
export interface StudyDefinition {
  id: string;
  title: string;
  consent: { title: string; blocks: ContentBlock[]; contact: string };
  entry: {
    title: string;
    /** The entry page's paragraphs: the first above the reminder, the others (the question) below it, in bold. */
    scenario: string[];
    /** The reminder the entry and baseline pages quote (docs/decisions/0062). */
    reminder: string;
    questionsLabel: string;
    confirmLabel: string;
    /** The answer key of the entry choice and the values of its two buttons (docs/decisions/0033). */
    key: string;
    values: EntryValues;
  };
  baseline: {
    question: string;
    labels: { min: string; mid: string; max: string };
    /** The answer key of the 1-7 intention; 7 is the ceiling exit. */
    key: string;
  };
  /**
   * Texts of the pages around the reading and at the end (docs/decisions/0034); each one absent is the built-in
   * wording, the spec's, which the web keeps in the page (so the MMR study and older versions leave them out).
   */
  pages?: StudyPages;
  /** The pre-study survey (before the condition is assigned). */
  pre: { title: string; intro: string; questions: SurveyQuestion[] };
  post: {
    title: string;
    question: string;
    /** The answer key of the 1-7 post-study intention (docs/decisions/0047). */
    key: string;
  };
  /**
   * The study's conditions, in order: 2 to 6, each with an id (stored on assignments and in exports) and a
   * label for researchers (docs/decisions/0061). Every per-condition part below is keyed by exactly these ids.
   */
  conditionList: ConditionDeclaration[];
  conditions: Record<Condition, ConditionContent>;
  /**
   * What the study calls its three pathways (label and description per pathway, each optional; the code keys
   * stay the spec's): for researchers only, never in the participant view (docs/decisions/0056).
   */
  pathways?: StudyPathways;
  chat: {
    conditions: Record<Condition, ConditionChat>;
    /** Canned greeting per condition when the initial chat message cannot be streamed or fetched. */
    fallbackGreetings: Record<Condition, string>;
    /**
     * When the chat is complete, per condition: at least `rounds` rounds and `points` points (docs/decisions/0049).
     * Each part absent is the spec's (3 rounds, 100 points): the MMR study and older versions leave it out.
     * Not secret: the participant view carries it (the page shows the targets).
     */
    completion?: ChatCompletionRules;
  };
}

/** A study's own texts for the static-intro and completion pages. */
export interface StudyPages {
  /** Before the sections. `{topic}` and `{sections}` in a paragraph become the condition's topic and count. */
  staticIntro?: { title: string; paragraphs: string[] };
  /** The completion page: the thanks above the code, and what to do with the code. */
  completion?: { thanks: string; instructions: string };
}

/** The stored values of the entry choice: going on to the study, or leaving with no concerns. */
export interface EntryValues {
  continue: string;
  exit: string;
}

/** Default minimum seconds for a section that does not set one (spec section 9). */
export const DEFAULT_SECTION_SECONDS = 30;

/** The built-in MMR study's condition ids (a study's own are in its `conditionList`). */
export type BuiltInCondition = 'mmr' | 'control';
type ByBuiltIn<T> = Record<BuiltInCondition, T>;

/** The built-in study's chat: its per-condition parts have exactly the built-in ids (code reads them by name). */
export type BuiltInStudyChat = StudyDefinition['chat'] & {
  conditions: ByBuiltIn<ConditionChat>;
  fallbackGreetings: ByBuiltIn<string>;
};

/** The built-in study, typed with its own condition ids (still a StudyDefinition). */
export type BuiltInStudyDefinition = StudyDefinition & {
  conditions: ByBuiltIn<ConditionContent>;
  chat: BuiltInStudyChat;
};

/** The browser's view of a study: no system prompts or scripted replies. */
export type WebStudyDefinition = Omit<StudyDefinition, 'chat' | 'pre' | 'pathways'> & {
  chat: Pick<StudyDefinition['chat'], 'fallbackGreetings' | 'completion'>;
  /**
   * Always in the server's participant view; left out of the built-in fallback the pages bundle, whose
   * pre-study survey only the pre-survey page loads (`mmrPreSurvey`), to keep the pages within 100 KB.
   */
  pre?: StudyDefinition['pre'];
};

/** One problem found in a definition: where (a JSON path such as `conditions.mmr.sections.0.title`) and what. */
export interface StudyIssue {
  path: string;
  message: string;
}
