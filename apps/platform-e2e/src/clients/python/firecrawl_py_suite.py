"""firecrawl-py against Quarry: its v2 client (Firecrawl), AsyncFirecrawl and the `.v1` client, unmodified,
pointed at the one-process server. Groups: v2, async, v1, keyless. Run by firecrawl-py.clients-spec.ts."""

import asyncio
import os
import tempfile
import time
import uuid

import requests
from firecrawl import AsyncFirecrawl, Firecrawl
from firecrawl.v2.types import PaginationConfig

from harness import check, env, expect, expect_raises, main

API_URL = env("API_URL")
API_KEY = os.environ.get("API_KEY", "")
SITE = env("SITE_URL")
TWIN = os.environ.get("TWIN_URL", "")
MARKER = env("MARKER")
ARTICLE_MARKER = env("ARTICLE_MARKER")
OCR_LINE = env("OCR_LINE")
PDF_TITLE = env("PDF_TITLE")


def client() -> Firecrawl:
    return Firecrawl(api_key=API_KEY, api_url=API_URL)


def headers() -> dict:
    return {"Authorization": f"Bearer {API_KEY}"} if API_KEY else {}


def pages_of(urls):
    return {u.rstrip("/") for u in urls}


# --- v2: the synchronous client -----------------------------------------------------------------


@check("v2", "scrape: default options return markdown")
def _():
    doc = client().scrape(f"{SITE}/")
    expect(MARKER in (doc.markdown or ""), f"marker missing from {doc.markdown!r:.200}")
    expect(doc.metadata.status_code == 200, "statusCode")
    expect(doc.metadata.source_url == f"{SITE}/", f"sourceURL {doc.metadata.source_url}")


@check("v2", "scrape: every common option, parsers as strings, lower-case country")
def _():
    doc = client().scrape(
        f"{SITE}/",
        formats=["markdown", "html", "raw_html", "links", "images"],
        headers={"x-client-suite": "firecrawl-py"},
        include_tags=["main"],
        exclude_tags=["footer"],
        only_main_content=True,
        timeout=30000,
        wait_for=100,
        mobile=False,
        parsers=["pdf"],
        location={"country": "us", "languages": ["en"]},
        skip_tls_verification=True,
        remove_base64_images=True,
        block_ads=True,
        proxy="auto",
        max_age=0,
        store_in_cache=False,
    )
    expect(MARKER in (doc.markdown or ""), "markdown")
    expect("<" in (doc.html or "") and "<html" in (doc.raw_html or ""), "html and rawHtml")
    expect(any(link.startswith(SITE) for link in doc.links or []), "links")


@check("v2", "scrape: a PDF with parsers: ['pdf']")
def _():
    doc = client().scrape(f"{SITE}/report.pdf", formats=["markdown"], parsers=["pdf"])
    expect(PDF_TITLE in (doc.markdown or ""), f"PDF text missing: {doc.markdown!r:.200}")
    expect((doc.metadata.num_pages or 0) > 0, "numPages")


@check("v2", "scrape: a PNG is OCR'd by the default parsers (pdf + image)")
def _():
    doc = client().scrape(f"{SITE}/scan.png", formats=["markdown"])
    expect(OCR_LINE.lower() in (doc.markdown or "").lower(), f"OCR text missing: {doc.markdown!r:.200}")


@check("v2", "scrape: parsers: ['image'] as an object list, ['pdf'] alone leaves images unparsed")
def _():
    ocr = client().scrape(f"{SITE}/scan.png", formats=["markdown"], parsers=[{"type": "image"}], max_age=0)
    expect(OCR_LINE.lower() in (ocr.markdown or "").lower(), "image parser object")
    plain = client().scrape(f"{SITE}/scan.png", formats=["markdown"], parsers=["pdf"], max_age=0)
    expect(plain.markdown == "", f"an image without the image parser gave text: {plain.markdown!r:.100}")
    expect("image parser" in (plain.warning or ""), f"warning {plain.warning}")


@check("v2", "scrape: branding of a page with few colors validates (no null colors)")
def _():
    doc = client().scrape(f"{SITE}/brand", formats=["branding"])
    expect(doc.branding is not None, "branding missing")
    colors = doc.branding.colors or {}
    expect(all(isinstance(value, str) for value in colors.values()), f"colors {colors}")
    expect(colors.get("background") is not None, f"background color missing from {colors}")


@check("v2", "scrape: check_prompt_injection refuses an injected page with 403, costs 4 credits on a clean one")
def _():
    expect_raises(
        lambda: client().scrape(f"{SITE}/injection", formats=["markdown"], check_prompt_injection=True),
        "SCRAPE_PROMPT_INJECTION_DETECTED",
    )
    doc = client().scrape(f"{SITE}/about", formats=["markdown"], check_prompt_injection=True, max_age=0)
    expect(doc.metadata.credits_used == 5, f"creditsUsed {doc.metadata.credits_used}")


@check("v2", "scrape: json format with checkPromptInjection is checked too")
def _():
    expect_raises(
        lambda: client().scrape(
            f"{SITE}/injection",
            formats=[{"type": "json", "prompt": "product name", "checkPromptInjection": True}],
        ),
        "SCRAPE_PROMPT_INJECTION_DETECTED",
    )


@check("v2", "map: the site's links, none of another port of the same host")
def _():
    fc = client()
    if TWIN:
        # The team index now holds a page of the other origin on the same host.
        twin = fc.scrape(f"{TWIN}/", formats=["markdown"])
        expect(twin.metadata.status_code == 200, "twin scrape")
    result = fc.map(f"{SITE}/", limit=50)
    urls = [link.url for link in result.links]
    expect(f"{SITE}/about" in pages_of(urls), f"about missing from {urls}")
    expect(all(url.startswith(SITE) for url in urls), f"links of another origin: {urls}")


@check("v2", "map: search and sitemap only")
def _():
    result = client().map(f"{SITE}/", search="docs", sitemap="only", limit=10)
    urls = [link.url for link in result.links]
    expect(len(urls) > 0 and all(url.startswith(SITE) for url in urls), f"{urls}")


@check("v2", "search: results from the team index")
def _():
    fc = client()
    fc.scrape(f"{SITE}/article", formats=["markdown"])
    result = fc.search(ARTICLE_MARKER, limit=5)
    urls = [item.url for item in result.web or []]
    expect(any(url.startswith(SITE) for url in urls), f"web results {urls}")


@check("v2", "search: the hosted alexandria source is refused with 403 Exchange is not enabled")
def _():
    expect_raises(lambda: client().search(MARKER, sources=["web", "alexandria"]), "Exchange is not enabled for this team.")


@check("v2", "crawl: waits for completion; job URL names the API host")
def _():
    fc = client()
    started = fc.start_crawl(f"{SITE}/", limit=5, sitemap="include")
    expect(started.url.startswith(API_URL.rstrip("/") + "/v2/crawl/"), f"job url {started.url}")
    job = fc.wait_crawl(started.id, poll_interval=1, timeout=120) if hasattr(fc, "wait_crawl") else fc.get_crawl_status(started.id)
    expect(job.status == "completed", f"status {job.status}")
    expect(len(job.data) >= 2, f"pages {len(job.data)}")


@check("v2", "crawl: crawl() convenience, status paging through next, errors, active list")
def _():
    fc = client()
    job = fc.crawl(f"{SITE}/", limit=5, poll_interval=1, timeout=120)
    expect(job.status == "completed" and len(job.data) >= 2, f"{job.status} {len(job.data)}")
    paged = fc.get_crawl_status(job.id, pagination_config=PaginationConfig(auto_paginate=True, max_results=100))
    expect(len(paged.data) == len(job.data), f"paged {len(paged.data)} vs {len(job.data)}")
    errors = fc.get_crawl_errors(job.id)
    expect(errors.errors == [] and errors.robots_blocked == [], f"{errors}")
    expect(isinstance(fc.get_active_crawls().crawls, list), "active crawls")


@check("v2", "crawl: status paging rules (limit 1..1000, skip digits), next follows the API host")
def _():
    fc = client()
    job = fc.crawl(f"{SITE}/", limit=4, poll_interval=1, timeout=120)
    base = f"{API_URL.rstrip('/')}/v2/crawl/{job.id}"
    first = requests.get(f"{base}?limit=1", headers=headers(), timeout=30).json()
    expect(first["success"] and len(first["data"]) == 1, f"{first}")
    expect(first.get("next", "").startswith(base + "?skip=1"), f"next {first.get('next')}")
    page = fc.get_crawl_status_page(first["next"])
    expect(len(page.data) == 1, f"page {len(page.data)}")
    for query, fragment in (("limit=0", "limit"), ("limit=1001", "limit"), ("skip=-1", "skip"), ("skip=1.5", "skip")):
        answer = requests.get(f"{base}?{query}", headers=headers(), timeout=30)
        body = answer.json()
        expect(answer.status_code == 400, f"{query}: {answer.status_code}")
        expect(body["error"].startswith("Invalid pagination:") and fragment in body["error"], f"{query}: {body}")
    last = requests.get(f"{base}?skip={len(job.data) - 1}", headers=headers(), timeout=30).json()
    expect("next" not in last, f"a completed crawl's last page has next: {last.get('next')}")


@check("v2", "crawl: cancel")
def _():
    fc = client()
    started = fc.start_crawl(f"{SITE}/", limit=50, delay=2)
    expect(fc.cancel_crawl(started.id) is True, "cancel")
    status = fc.get_crawl_status(started.id)
    expect(status.status == "cancelled", f"status {status.status}")


@check("v2", "batch scrape: completes, errors route and cancel")
def _():
    fc = client()
    job = fc.batch_scrape([f"{SITE}/", f"{SITE}/about"], formats=["markdown"], poll_interval=1, wait_timeout=120)
    expect(job.status == "completed" and len(job.data) == 2, f"{job.status} {len(job.data)}")
    started = fc.start_batch_scrape([f"{SITE}/article"], idempotency_key=str(uuid.uuid4()))
    expect(started.url.startswith(API_URL.rstrip("/") + "/v2/batch/scrape/"), f"job url {started.url}")
    errors = fc.get_batch_scrape_errors(started.id)
    expect(errors.errors == [], f"{errors}")
    status = fc.get_batch_scrape_status(started.id)
    expect(status.status in ("scraping", "completed"), status.status)


@check("v2", "usage: credits, tokens, history, queue, concurrency")
def _():
    fc = client()
    expect(fc.get_credit_usage().remaining_credits > 0, "credits")
    expect(fc.get_token_usage().remaining_tokens >= 0, "tokens")
    expect(fc.get_queue_status().max_concurrency >= 1, "queue")
    expect(fc.get_concurrency().max_concurrency >= 1, "concurrency")


@check("v2", "parse: a PDF and an HTML file; the formats list")
def _():
    fc = client()
    pdf = requests.get(f"{SITE}/report.pdf", timeout=30).content
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(pdf)
        handle.flush()
        doc = fc.parse(handle.name)
    expect(PDF_TITLE in (doc.markdown or ""), "parsed PDF")
    html = fc.parse(b"<html><body><h1>Uploaded " + MARKER.encode() + b"</h1></body></html>", filename="upload.html")
    expect(MARKER in (html.markdown or ""), "parsed HTML")
    formats = {item.format: item for item in fc.get_parse_formats()}
    expect(formats["pdf"].available and formats["pdf"].kind == "document", f"{formats.get('pdf')}")
    expect(formats["png"].kind == "image" and ".png" in formats["png"].extensions, f"{formats.get('png')}")
    expect("application/pdf" in formats["pdf"].mime_types, "mimeTypes")


@check("v2", "extract: started and read back")
def _():
    fc = client()
    started = fc.start_extract(urls=[f"{SITE}/article"], prompt="The title of the article")
    expect(bool(started.id), "id")
    deadline = time.monotonic() + 120
    status = fc.get_extract_status(started.id)
    while status.status not in ("completed", "failed", "cancelled") and time.monotonic() < deadline:
        time.sleep(1)
        status = fc.get_extract_status(started.id)
    expect(status.status == "completed", f"extract {status.status}: {getattr(status, 'error', None)}")


@check("v2", "agent: started, status and list")
def _():
    fc = client()
    started = fc.start_agent(prompt=f"Find the word after Welcome on {SITE}/", urls=[f"{SITE}/"])
    expect(bool(started.id), "id")
    status = fc.get_agent_status(started.id)
    expect(status.status in ("processing", "completed", "failed"), f"status {status.status}")
    expect(any(item.id == started.id for item in fc.list_agents().agents or []), "listed")


@check("v2", "monitor: create, get, list, run, checks, delete")
def _():
    fc = client()
    monitor = fc.create_monitor(
        name="client suite monitor",
        schedule={"cron": "0 * * * *", "timezone": "UTC"},
        targets=[{"type": "scrape", "urls": [f"{SITE}/about"]}],
    )
    expect(fc.get_monitor(monitor.id).id == monitor.id, "get")
    expect(any(item.id == monitor.id for item in fc.list_monitors()), "list")
    check_run = fc.run_monitor(monitor.id)
    expect(bool(check_run.id), "run")
    expect(isinstance(fc.list_monitor_checks(monitor.id), list), "checks")
    expect(fc.delete_monitor(monitor.id) is True, "delete")


# --- async: AsyncFirecrawl ----------------------------------------------------------------------


def run_async(coro_fn):
    def runner():
        asyncio.run(coro_fn())

    return runner


async def _async_scrape_map_search():
    fc = AsyncFirecrawl(api_key=API_KEY, api_url=API_URL)
    doc = await fc.scrape(f"{SITE}/", formats=["markdown"], location={"country": "de"}, parsers=["pdf"])
    expect(MARKER in (doc.markdown or ""), "scrape")
    mapped = await fc.map(f"{SITE}/", limit=20)
    expect(any(link.url.startswith(SITE) for link in mapped.links), "map")
    found = await fc.search(MARKER, limit=3)
    expect(found.web is not None, "search")


async def _async_batch():
    fc = AsyncFirecrawl(api_key=API_KEY, api_url=API_URL)
    started = await fc.start_batch_scrape([f"{SITE}/", f"{SITE}/about"])
    errors = await fc.get_batch_scrape_errors(started.id)
    expect(errors.get("errors") == [] if isinstance(errors, dict) else errors.errors == [], f"errors {errors}")
    deadline = time.monotonic() + 120
    status = await fc.get_batch_scrape_status(started.id)
    while status.status == "scraping" and time.monotonic() < deadline:
        await asyncio.sleep(1)
        status = await fc.get_batch_scrape_status(started.id)
    expect(status.status == "completed" and len(status.data) == 2, f"{status.status} {len(status.data)}")


async def _async_crawl():
    fc = AsyncFirecrawl(api_key=API_KEY, api_url=API_URL)
    job = await fc.crawl(url=f"{SITE}/", limit=4, poll_interval=1, timeout=120)
    expect(job.status == "completed" and len(job.data) >= 2, f"{job.status}")
    errors = await fc.get_crawl_errors(job.id)
    expect(errors.errors == [], "crawl errors")
    expect(await fc.cancel_crawl(job.id) in (True, False), "cancel answers")


async def _async_usage_parse():
    fc = AsyncFirecrawl(api_key=API_KEY, api_url=API_URL)
    expect((await fc.get_credit_usage()).remaining_credits > 0, "credits")
    expect((await fc.get_concurrency()).max_concurrency >= 1, "concurrency")
    formats = await fc.get_parse_formats()
    expect(any(item.format == "docx" for item in formats), "formats")


async def _async_branding():
    fc = AsyncFirecrawl(api_key=API_KEY, api_url=API_URL)
    doc = await fc.scrape(f"{SITE}/brand", formats=["branding"])
    expect(doc.branding is not None, "branding")


check("async", "AsyncFirecrawl: scrape, map, search")(run_async(_async_scrape_map_search))
check("async", "AsyncFirecrawl: batch errors (success field) and status")(run_async(_async_batch))
check("async", "AsyncFirecrawl: crawl, crawl errors, cancel")(run_async(_async_crawl))
check("async", "AsyncFirecrawl: usage and parse formats")(run_async(_async_usage_parse))
check("async", "AsyncFirecrawl: branding")(run_async(_async_branding))


# --- v1: the `.v1` client (and the V1FirecrawlApp behind it for the methods .v1 does not proxy) --


def v1_client():
    return client().v1


def v1_app():
    from firecrawl.v1 import V1FirecrawlApp

    return V1FirecrawlApp(api_key=API_KEY or None, api_url=API_URL)


@check("v1", "v1 scrape_url: markdown, html, links, a full-page screenshot")
def _():
    doc = v1_client().scrape_url(f"{SITE}/", formats=["markdown", "html", "links", "screenshot@fullPage"], only_main_content=False)
    expect(MARKER in (doc.markdown or ""), "markdown")
    expect(any(link.startswith(SITE) for link in doc.links or []), "links")
    expect((doc.screenshot or "").startswith("http"), f"screenshot {doc.screenshot!r:.80}")
    expect(doc.metadata["statusCode"] == 200, "metadata")


@check("v1", "v1 scrape_url: json and extract formats answer under their v1 names")
def _():
    schema = {"type": "object", "properties": {"heading": {"type": "string"}}}
    doc = v1_client().scrape_url(f"{SITE}/article", formats=["json"], json_options={"prompt": "The heading", "schema": schema})
    expect(doc.json_field is not None and doc.extract is None, f"json {doc.json_field} extract {doc.extract}")
    legacy = v1_client().scrape_url(f"{SITE}/article", formats=["extract"], extract={"prompt": "The heading", "schema": schema})
    expect(legacy.extract is not None and legacy.json_field is None, f"extract {legacy.extract}")


@check("v1", "v1 scrape_url: parse_pdf false returns the PDF base64-encoded; a stealth proxy and a geolocation are accepted")
def _():
    raw = v1_client().scrape_url(f"{SITE}/report.pdf", formats=["markdown"], parse_pdf=False)
    expect((raw.markdown or "").startswith("JVBER"), f"base64 PDF {raw.markdown!r:.40}")
    parsed = v1_client().scrape_url(f"{SITE}/report.pdf", formats=["markdown"])
    expect(PDF_TITLE in (parsed.markdown or ""), "parsed PDF")
    from firecrawl.v1.client import V1LocationConfig

    doc = v1_app().scrape_url(f"{SITE}/about", proxy="stealth", location=V1LocationConfig(country="us", languages=["en"]))
    expect("About" in (doc.markdown or ""), "stealth proxy and a lower-case country")


@check("v1", "v1 scrape_url: a URL without a scheme is http")
def _():
    host = SITE.split("://", 1)[1]
    doc = v1_client().scrape_url(f"{host}/about")
    expect("About" in (doc.markdown or ""), "schemeless URL")


@check("v1", "v1 scrape_url: a bad request is an HTTPError with the v2 error text")
def _():
    expect_raises(lambda: v1_client().scrape_url(f"{SITE}/", formats=["json"]), "400", "corresponding options")


@check("v1", "v1 map_url: links are strings; sitemap_only and search")
def _():
    result = v1_client().map_url(f"{SITE}/", limit=20)
    expect(all(isinstance(link, str) for link in result.links), f"{result.links}")
    expect(f"{SITE}/about" in pages_of(result.links), f"{result.links}")
    only = v1_client().map_url(f"{SITE}/", sitemap_only=True, search="docs")
    expect(len(only.links) > 0 and all(link.startswith(SITE) for link in only.links), f"{only.links}")


@check("v1", "v1 search: one flat list, scraped when formats are named")
def _():
    fc = v1_app()
    fc.scrape_url(f"{SITE}/article")
    plain = fc.search(ARTICLE_MARKER, limit=3)
    expect(any(item["url"].startswith(SITE) for item in plain.data), f"{plain.data}")
    expect("markdown" not in plain.data[0], "unscraped results carry no markdown")
    from firecrawl.v1.client import V1ScrapeOptions

    scraped = fc.search(ARTICLE_MARKER, limit=2, scrape_options=V1ScrapeOptions(formats=["markdown"]))
    expect(any(ARTICLE_MARKER in (item.get("markdown") or "") for item in scraped.data), "scraped results")


@check("v1", "v1 crawl_url waits for the job; status pages and next links are v1")
def _():
    job = v1_client().crawl_url(f"{SITE}/", limit=4, poll_interval=1)
    expect(job.status == "completed" and len(job.data) >= 2, f"{job.status} {len(job.data)}")
    expect(any(MARKER in (doc.markdown or "") for doc in job.data), "documents")
    started = v1_client().async_crawl_url(f"{SITE}/", limit=3, ignore_sitemap=True, scrape_options=None)
    expect(started.url.startswith(API_URL.rstrip("/") + "/v1/crawl/"), f"job url {started.url}")
    deadline = time.monotonic() + 120
    status = v1_client().check_crawl_status(started.id)
    while status.status == "scraping" and time.monotonic() < deadline:
        time.sleep(1)
        status = v1_client().check_crawl_status(started.id)
    expect(status.status == "completed", status.status)
    page = requests.get(f"{API_URL.rstrip('/')}/v1/crawl/{started.id}?limit=1", headers=headers(), timeout=30).json()
    expect(page.get("next", "").startswith(f"{API_URL.rstrip('/')}/v1/crawl/{started.id}?skip=1"), f"next {page.get('next')}")


@check("v1", "v1 crawl errors and cancel")
def _():
    fc = v1_app()
    started = fc.async_crawl_url(f"{SITE}/", limit=30, delay=2)
    cancelled = fc.cancel_crawl(started.id)
    expect(cancelled.get("status") == "cancelled", f"{cancelled}")
    errors = fc.check_crawl_errors(started.id)
    expect(errors.robotsBlocked == [], f"{errors}")


@check("v1", "v1 batch_scrape_urls waits; async start, status and errors")
def _():
    job = v1_client().batch_scrape_urls([f"{SITE}/", f"{SITE}/about"], formats=["markdown"], poll_interval=1)
    expect(job.status == "completed" and len(job.data) == 2, f"{job.status} {len(job.data)}")
    started = v1_client().async_batch_scrape_urls([f"{SITE}/article"])
    expect(started.url.startswith(API_URL.rstrip("/") + "/v1/batch/scrape/"), f"job url {started.url}")
    fc = v1_app()
    expect(fc.check_batch_scrape_errors(started.id).errors == [], "errors")
    deadline = time.monotonic() + 120
    status = fc.check_batch_scrape_status(started.id)
    while status.status == "scraping" and time.monotonic() < deadline:
        time.sleep(1)
        status = fc.check_batch_scrape_status(started.id)
    expect(status.status == "completed" and len(status.data) == 1, status.status)


@check("v1", "v1 extract: waits for the job; get_extract_status")
def _():
    result = v1_client().extract([f"{SITE}/article"], prompt="The heading of the article")
    expect(result.success and result.data is not None, f"{result}")
    started = v1_app().async_extract([f"{SITE}/about"], prompt="The heading")
    expect(bool(started.id), f"{started}")
    status = v1_app().get_extract_status(started.id)
    expect(status.status in ("processing", "completed"), status.status)


@check("v1", "v1 usage: credits and tokens in snake case, history")
def _():
    fc = v1_app()
    expect(fc.get_credit_usage().data.remaining_credits > 0, "credits")
    expect(fc.get_token_usage().data.remaining_tokens >= 0, "tokens")
    expect(isinstance(fc.get_credit_usage_historical().periods, list), "credit history")
    expect(isinstance(fc.get_token_usage_historical(by_api_key=True).periods, list), "token history")


@check("v1", "AsyncFirecrawl .v1: scrape_url and map_url")
def _():
    async def go():
        v1 = AsyncFirecrawl(api_key=API_KEY, api_url=API_URL).v1
        doc = await v1.scrape_url(f"{SITE}/", formats=["markdown"])
        expect(MARKER in (doc.markdown or ""), "async v1 scrape")
        mapped = await v1.map_url(f"{SITE}/")
        expect(len(mapped.links or []) > 0, "async v1 map")

    asyncio.run(go())


# --- keyless: a server with AUTH_ENABLED=false, the client built with an empty key ---------------


@check("keyless", "Firecrawl(api_key=''): scrape, map, batch, usage send no Authorization header and work")
def _():
    expect(API_KEY == "", "run this group without API_KEY")
    fc = Firecrawl(api_key="", api_url=API_URL)
    doc = fc.scrape(f"{SITE}/", formats=["markdown"])
    expect(MARKER in (doc.markdown or ""), "scrape")
    expect(len(fc.map(f"{SITE}/").links) > 0, "map")
    job = fc.batch_scrape([f"{SITE}/about"], poll_interval=1, wait_timeout=120)
    expect(job.status == "completed", job.status)
    expect(fc.get_credit_usage().remaining_credits >= 0, "usage")


@check("keyless", "AsyncFirecrawl(api_key=''): scrape")
def _():
    async def go():
        fc = AsyncFirecrawl(api_key="", api_url=API_URL)
        doc = await fc.scrape(f"{SITE}/about")
        expect("About" in (doc.markdown or ""), "scrape")

    asyncio.run(go())


@check("keyless", "v1 client without a key: scrape and map")
def _():
    v1 = Firecrawl(api_key="", api_url=API_URL).v1
    doc = v1.scrape_url(f"{SITE}/", formats=["markdown"])
    expect(MARKER in (doc.markdown or ""), "v1 scrape")
    expect(len(v1.map_url(f"{SITE}/").links or []) > 0, "v1 map")


if __name__ == "__main__":
    main()
