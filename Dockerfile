# The Partner Gateway as a production image: the build stage installs everything and compiles (the root
# `prepare` script runs the TypeScript build); the runtime stage installs production dependencies only,
# without lifecycle scripts (`prepare` would need TypeScript), and takes the compiled output from the build.

FROM node:22-bookworm-slim AS build
WORKDIR /app
# The whole context (.dockerignore keeps node_modules, dist, data and secrets out): whatever the build script
# compiles is here. `npm ci` runs `prepare`, which builds the contract, the client and the gateway into
# packages/contract/dist/, packages/client/dist/ and dist/.
COPY . .
RUN npm ci --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
# HOST: the public API on every interface of the container (the gateway's own default, outside production,
# is 127.0.0.1; said here explicitly, so that the image never depends on NODE_ENV for it).
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/client/package.json packages/client/
COPY packages/client/bin packages/client/bin
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
COPY --from=build /app/packages/contract/dist packages/contract/dist
COPY --from=build /app/packages/client/dist packages/client/dist
COPY bin bin
# The bank registry is filled from seeds/sbp-banks.json on first start.
COPY seeds seeds
# DATA_DIR (default ./data) is only used by the embedded database; it must be writable by the runtime user.
RUN mkdir -p data && chown node:node data
USER node
EXPOSE 8080 8081
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The command of `npm start` (test/deploy checks they agree): V8's young generation capped at 4 MiB a
# semi-space (16 by default) and its heap at 256 MiB, which keep the peak RSS near 120 MB where V8, sizing its
# heap for the host's memory, let it reach 210 MB at the same throughput (docs/performance.md).
CMD ["node", "--max-semi-space-size=4", "--max-old-space-size=256", "dist/src/main.js"]
