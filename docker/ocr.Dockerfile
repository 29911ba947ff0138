# syntax=docker/dockerfile:1.7
# Quarry document parser: Node.js + Tesseract OCR (English data; add languages with OCR_PACKAGES),
# Poppler's pdftoppm for page rendering and Ghostscript to recover damaged PDFs (GHOSTSCRIPT_PATH).
# LibreOffice (legacy .doc/.xls/.xlsb/.ppt conversion, SOFFICE_PATH) is large and optional:
# --build-arg WITH_LIBREOFFICE=true. Build from the repository root:
#   docker build -f docker/ocr.Dockerfile --build-arg APP=doc-parser -t quarry/doc-parser .
# apps: doc-parser
ARG NODE_IMAGE=node:22-bookworm-slim

# 1. Build the service bundle (webpack → dist/apps/$APP: main.js + worker bundles, pruned package.json + lockfile).
FROM ${NODE_IMAGE} AS build
ARG APP=doc-parser
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
ARG APP=doc-parser
WORKDIR /app
COPY --from=build /src/dist/apps/${APP}/package.json /src/dist/apps/${APP}/package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

# 3. Runtime: Tesseract + language data, Poppler, Ghostscript, bundle (main.js + parse-worker.js) + production node_modules, non-root.
FROM ${NODE_IMAGE} AS runtime
ARG APP=doc-parser
ARG OCR_PACKAGES="tesseract-ocr-eng"
ARG WITH_LIBREOFFICE=false
LABEL org.opencontainers.image.source="https://github.com/quarry/quarry" org.opencontainers.image.title="quarry-${APP}"
RUN apt-get update \
  && apt-get install -y --no-install-recommends tesseract-ocr ${OCR_PACKAGES} poppler-utils ghostscript fonts-dejavu-core ca-certificates dumb-init \
  && if [ "$WITH_LIBREOFFICE" = "true" ]; then apt-get install -y --no-install-recommends libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui; fi \
  && rm -rf /var/lib/apt/lists/*
# One OCR thread per process: parallelism comes from OCR_CONCURRENCY, not OpenMP (which thrashes small nodes).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3002 DATA_DIR=/data SERVICE_NAME=${APP} OMP_THREAD_LIMIT=1
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /src/dist/apps/${APP}/ ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3002
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3002)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["dumb-init", "--", "node", "--enable-source-maps", "main.js"]
