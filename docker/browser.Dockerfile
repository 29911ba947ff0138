# syntax=docker/dockerfile:1.7
# Quarry services that drive a browser: Node.js + Debian's Chromium and fonts for rendering,
# screenshots and PDFs of pages in most scripts. Build from the repository root:
#   docker build -f docker/browser.Dockerfile --build-arg APP=scrape-worker -t quarry/scrape-worker .
# apps: scrape-worker standalone
ARG NODE_IMAGE=node:22-bookworm-slim

# 1. Build the service bundle (webpack → dist/apps/$APP: main.js + worker bundles, pruned package.json + lockfile, migrations).
FROM ${NODE_IMAGE} AS build
ARG APP=scrape-worker
WORKDIR /src
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false PUPPETEER_SKIP_DOWNLOAD=true
COPY package.json package-lock.json .npmrc .puppeteerrc.cjs ./
# `npm install` (honouring the lock file) rather than `npm ci`, as `make setup` does: the lock file
# lacks other platforms' optional packages, which `npm ci` rejects.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run --silent db:generate && npx nx build ${APP}

# 2. Production dependencies only, from the pruned package.json the build wrote for this app.
FROM ${NODE_IMAGE} AS deps
ARG APP=scrape-worker
WORKDIR /app
ENV PUPPETEER_SKIP_DOWNLOAD=true
COPY --from=build /src/dist/apps/${APP}/package.json /src/dist/apps/${APP}/package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

# 3. Runtime: Chromium + fonts (Latin, CJK, emoji), bundle + production node_modules, non-root.
FROM ${NODE_IMAGE} AS runtime
ARG APP=scrape-worker
LABEL org.opencontainers.image.source="https://github.com/quarry/quarry" org.opencontainers.image.title="quarry-${APP}"
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji ca-certificates dumb-init \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3002 DATA_DIR=/data SERVICE_NAME=${APP} CHROMIUM_PATH=/usr/bin/chromium
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /src/dist/apps/${APP}/ ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3002
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3002)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# dumb-init reaps the browser's zombie processes and forwards SIGTERM to Node.
ENTRYPOINT ["dumb-init", "--", "node", "--enable-source-maps", "main.js"]
