import http from 'node:http';

// Baseline for `npm run bench`: a bare node:http server answering the same JSON as /api/health.
const body = JSON.stringify({
  status: 'ok',
  database: { dialect: 'sqlite', reachable: true },
  llmProvider: 'scripted',
});
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(JSON.stringify({ port: address.port }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
