# syntax=docker/dockerfile:1
# Platen's image, on Node 24 (the Active LTS). Two stages: `build` installs every dependency (with
# compilers, in case a native module has no prebuilt binary for the platform) and compiles what
# production runs (`npm run build`: the service into dist/, @platen/client, the studio); the final
# stage gets only the production dependencies, the compiled JavaScript (no TypeScript compiler is
# loaded), the built studio and the fonts (npm packages under node_modules), and runs as the
# unprivileged `node` user.
# docs/deployment.md explains each choice; test/deployment.test.ts checks this file.

ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY clients/typescript/package.json ./clients/typescript/package.json
# Scripts are skipped here because `prepare` builds from the sources, which are not copied yet.
RUN npm ci --no-audit --no-fund --ignore-scripts \
 && npm rebuild --no-audit --no-fund better-sqlite3 sharp @napi-rs/canvas esbuild
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    PLATEN_HOST=0.0.0.0 \
    PLATEN_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/clients/typescript/package.json ./clients/typescript/package.json
COPY --from=build --chown=node:node /app/clients/typescript/dist ./clients/typescript/dist
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/studio/dist ./studio/dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# `npm start` without npm in between: SIGTERM reaches the service itself (graceful shutdown).
CMD ["node", "--enable-source-maps", "dist/main.js"]
