import { randomUUID } from 'node:crypto';
import type { Database } from './db/database.js';
import type { AppDeps } from './lib/deps.js';
import type { ChatModel } from './llm/chat-model.js';
import { createStudyScriptedModel } from './llm/create-chat-model.js';
import { databaseStudies } from './modules/studies/study-source.js';

/** Real clock, ids and randomness; the scripted model unless a chat model is given (main.ts gives the configured one). */
export function defaultDeps(database: Database, llm: ChatModel = createStudyScriptedModel()): AppDeps {
  return {
    database,
    clock: () => new Date(),
    newId: randomUUID,
    random: Math.random,
    llm,
    ...databaseStudies(database),
  };
}
