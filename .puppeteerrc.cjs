// Chromium comes from the system (CHROMIUM_PATH, default /usr/bin/chromium): never download a browser.
module.exports = { skipDownload: true };
