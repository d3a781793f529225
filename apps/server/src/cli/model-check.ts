import { buildLlmConfig, ConfigError, parseEnv } from '../config.js';
import { loadEnvFile } from '../env-file.js';
import { checkModel, createCheckModel } from '../llm/model-check.js';

// `npm run model:check`: one tiny request with the configured provider, key and model (the same
// environment as `npm start`), and what is wrong in plain words. Exit code 0 when the model works.
async function main(): Promise<void> {
  let llm;
  try {
    loadEnvFile();
    llm = buildLlmConfig(parseEnv(process.env));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const where = llm.provider === 'scripted' ? 'the scripted offline model' : `${llm.provider} model "${llm.model}"`;
  console.log(`Checking ${where}...`);
  const result = await checkModel(createCheckModel(llm), llm);
  console.log(`${result.ok ? 'OK' : `FAILED (${result.problem ?? 'unknown'})`}: ${result.message}`);
  process.exit(result.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
