# syntax=docker/dockerfile:1
# StudyChat: the built web app and the bundled server on a slim Node image, run as the unprivileged `node`
# user. `docker compose up -d --build --wait` builds and starts it with PostgreSQL and Caddy (docs/operating.md, Deploy).
# The container runs the same production entry as `npm start`: node apps/server/dist/main.js.

ARG NODE_VERSION=22

# Build tools for native modules (better-sqlite3 compiles when no prebuilt binary fits) and the manifests.
FROM node:${NODE_VERSION}-bookworm-slim AS base
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY e2e/package.json e2e/

# The server's production dependencies only: what the running image needs from node_modules. (npm keeps
# a few versions that clash with the root's in apps/server/node_modules; the folder is made if there are none.)
FROM base AS deps
RUN npm ci --omit=dev --workspace=@studychat/server --include-workspace-root=false --no-audit --no-fund \
  && mkdir -p apps/server/node_modules

# Everything, to build the web app (apps/web/dist) and bundle the server (apps/server/dist).
FROM base AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# What runs: Node, production dependencies and the two builds. No compilers, sources or dev tools.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/apps/server/node_modules ./apps/server/node_modules
COPY package.json ./
COPY apps/server/package.json ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
# The data folder (generated secrets, first admin's password file, SQLite if used, backups) belongs to `node`.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Ready = database reachable, migrations applied, model configured (GET /api/ready answers 200).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
