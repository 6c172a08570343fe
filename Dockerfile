# syntax=docker/dockerfile:1
# The offerops image: the API by default; the worker and the one-shot Temporal setup run from the
# same image with another command (docs/operations/deployment.md). Build: docker build -t offerops .

# Debian slim, not Alpine: Temporal's native bridge ships glibc builds only.
FROM node:20.20.0-bookworm-slim AS base
WORKDIR /app

# Every dependency, the build's included. Install scripts off: no dependency needs one here, and the
# package's own `prepare` would build before the sources are copied in.
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY schemas schemas
COPY temporal temporal
COPY domain domain
COPY workflows workflows
COPY activities activities
COPY mcp mcp
COPY api api
COPY worker worker
COPY tools tools
RUN npm run build

# Production dependencies only; --ignore-scripts skips `prepare`, whose build needs the dev dependencies.
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM base AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
COPY package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
# Read at run time: the request collection and event schemas (API), the OpenAPI document and recipes (CLI).
COPY schemas/*.json schemas/
COPY schemas/events/*.json schemas/events/
COPY recipes recipes
RUN ln -s /app/dist/tools/cli/offerops.js /usr/local/bin/offerops
# Owned by root and read-only to the process: the code cannot be changed at run time.
USER node
EXPOSE 8080
# Liveness, not /healthz: a database outage must not mark every API container unhealthy (deployment.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/livez', { signal: AbortSignal.timeout(3000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself, which starts the drain.
CMD ["node", "dist/api/main.js"]
