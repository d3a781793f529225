import Fastify from 'fastify';

// Second reference for `npm run bench`: Fastify with no plugins answering the same JSON as /api/health,
// so the figures show what the framework itself costs next to what the app adds.
const body = { status: 'ok', database: { dialect: 'sqlite', reachable: true }, llmProvider: 'scripted' };
const app = Fastify({ logger: false });
app.get('/', async () => body);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address && typeof address === 'object') process.stdout.write(JSON.stringify({ port: address.port }) + '\n');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
