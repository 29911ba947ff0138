#!/usr/bin/env bash
# Installs the system packages the platform and its tests use, reusing what is already there.
#   chromium (browser engine), fonts (CJK pages render), tesseract + poppler (document OCR/rendering), ghostscript (damaged PDF recovery).
source "$(dirname "$0")/common.sh"
apt_ensure chromium fonts-liberation fonts-noto-cjk tesseract-ocr tesseract-ocr-eng poppler-utils ghostscript
log "system packages ready (chromium: $(command -v chromium || echo missing))"
