# The playground's image: multi-stage, the production dependencies only, run as the unprivileged
# `node` user, with a health check on /healthz. These machines have no Docker engine to build it,
# so every command in it is one the test suite runs: tests/integration/deploy.test.ts builds this
# image's file tree from the COPY lines below (with the production dependencies of package-lock.json
# only, as `npm prune --omit=dev` leaves them), then runs CMD and HEALTHCHECK in it, as `node`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
# Listening on every interface means hosted mode, which needs ORIGIN: set it (compose.yaml does).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=5173
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/scripts/serve.js ./scripts/serve.js
COPY --from=build --chown=node:node /app/scripts/healthcheck.js ./scripts/healthcheck.js
COPY --from=build --chown=node:node /app/src/lib/config.server.js ./src/lib/config.server.js
COPY --from=build --chown=node:node /app/src/lib/server/headers.js ./src/lib/server/headers.js
USER node
EXPOSE 5173
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s CMD ["node", "scripts/healthcheck.js"]
CMD ["node", "scripts/serve.js"]
