/**
 * Request samples for the API reference, keyed by operationId: curl, the TypeScript SDK
 * (`@platen/client`) and the Python SDK (`platen`), attached to the document as `x-codeSamples`
 * (Redoc shows them as tabs). Routes stay as they are: the document's assembly adds these. The curl
 * samples read `PLATEN_BASE_URL`, `PLATEN_API_KEY` and the ids from the environment, so they run as
 * written (test/api-reference.test.ts runs every one against a real server).
 */
import { type CodeSample, codeSamples, python, type SampleSet, typescript } from './code-samples.ts';

const AUTH = '-H "Authorization: Bearer $PLATEN_API_KEY"';
const JSON_BODY = "-H 'Content-Type: application/json'";
const TS_TEMPLATE = "const templateId = 'tpl_3Jd8Wn5QpZr1YkVc6MxBt2';";
const PY_TEMPLATE = 'template_id = "tpl_3Jd8Wn5QpZr1YkVc6MxBt2"';

/** A signed render URL of one format: the shell signs with openssl (docs/api.md's recipe). */
function signedUrlSamples(format: 'png' | 'jpeg' | 'pdf'): SampleSet {
  return {
    curl: `# The query without sig, sorted and percent-encoded (%20);
# exp: a week from now
path="/v1/templates/$TEMPLATE_ID/image.${format}"
query="exp=$(($(date +%s) + 604800))&headline=Summer%20sale"
sig=$(printf '%s' "$path?$query" |
  openssl dgst -sha256 -hmac "$PLATEN_URL_SECRET" |
  sed 's/^.*= //')
# The first request renders (a credit); the same URL: free
curl -o card.${format} "$PLATEN_BASE_URL$path?$query&sig=$sig"`,
    typescript: typescript(
      ['signRenderUrl'],
      `// In your backend: the secret (urlsec_…) stays there
const url = await signRenderUrl({
  baseUrl: 'https://platen.example.com',
  templateId: 'tpl_3Jd8Wn5QpZr1YkVc6MxBt2',
  format: '${format}',
  variables: { headline: 'Summer sale' },
  secret: process.env.PLATEN_URL_SECRET!,
});
// An <img src>, og:image or link: the first request renders
// (a credit); the same URL is then free`,
      false,
    ),
    python: python(
      ['sign_render_url'],
      `# In your backend: the secret (urlsec_…) stays there
url = sign_render_url(
    base_url="https://platen.example.com",
    template_id="tpl_3Jd8Wn5QpZr1YkVc6MxBt2",
    format="${format}",
    variables={"headline": "Summer sale"},
    secret=os.environ["PLATEN_URL_SECRET"],
)
# An <img src>, og:image or link: the first request renders
# (a credit); the same URL is then free`,
      false,
    ),
  };
}

const samples: Record<string, SampleSet> = {
  renderTemplate: {
    curl: `curl "$PLATEN_BASE_URL/v1/templates/$TEMPLATE_ID/render" \\
  ${AUTH} \\
  ${JSON_BODY} \\
  -d '{"format": "png", "modifications": {"headline": "Hi"}}'`,
    typescript: typescript(
      ['Platen', 'PlatenError'],
      `${TS_TEMPLATE}

try {
  const result = await platen.render(templateId, {
    format: 'png',
    modifications: { headline: 'Hi' },
  });
  console.log(result.url, result.credits.charged);
} catch (e) {
  if (!(e instanceof PlatenError)) throw e;
  // Branch on e.code, never on the message
  if (e.code !== 'INSUFFICIENT_CREDITS') throw e;
  console.error('Top up the workspace');
}

// In the background (async: true), until it is done:
const pdf = await platen.renderAndWait(templateId, {
  format: 'pdf',
});`,
    ),
    python: python(
      ['Platen', 'PlatenError'],
      `${PY_TEMPLATE}

try:
    result = platen.render(
        template_id,
        format="png",
        modifications={"headline": "Hi"},
    )
    print(result["url"], result["credits"]["charged"])
except PlatenError as e:
    # Branch on e.code, never on the message
    if e.code != "INSUFFICIENT_CREDITS":
        raise
    print("Top up the workspace")

# In the background (async), until it is done:
pdf = platen.render_and_wait(template_id, format="pdf")`,
    ),
  },

  getRender: {
    curl: `curl "$PLATEN_BASE_URL/v1/renders/$RENDER_ID" \\
  ${AUTH}`,
    typescript: typescript(
      ['Platen'],
      `
const renderId = 'rnd_7Hc2Kq9VbXe4LmTz0RsPa1';
const render = await platen.renders.get(renderId);
// A background render not done yet answers its state:
// status 'pending', or 'failed' with its error
if ('status' in render) console.log(render.status);
else console.log(render.url, render.width, render.height);`,
    ),
    python: python(
      ['Platen'],
      `
render = platen.renders.get("rnd_7Hc2Kq9VbXe4LmTz0RsPa1")
# A background render not done yet answers its state:
# status "pending", or "failed" with its error
if "status" in render:
    print(render["status"], render.get("error"))
else:
    print(render["url"], render["width"], render["height"])`,
    ),
  },

  renderTemplateBySignedUrlPng: signedUrlSamples('png'),
  renderTemplateBySignedUrlJpeg: signedUrlSamples('jpeg'),
  renderTemplateBySignedUrlPdf: signedUrlSamples('pdf'),

  createBatch: {
    curl: `curl "$PLATEN_BASE_URL/v1/templates/$TEMPLATE_ID/batches" \\
  ${AUTH} \\
  ${JSON_BODY} \\
  -d '{"format": "png",
       "rows": [{"headline": "Paris"}, {"headline": "Rome"}]}'`,
    typescript: typescript(
      ['Platen'],
      `${TS_TEMPLATE}

const batch = await platen.batches.create(templateId, {
  rows: [{ headline: 'Paris' }, { headline: 'Rome' }],
  format: 'png',
});
const done = await platen.batches.wait(batch.id);
for (const row of done.rows)
  console.log(row.row, row.status, row.url);`,
    ),
    python: python(
      ['Platen'],
      `${PY_TEMPLATE}

batch = platen.batches.create(
    template_id,
    rows=[{"headline": "Paris"}, {"headline": "Rome"}],
    format="png",
)
done = platen.batches.wait(batch["id"])
for row in done["rows"]:
    print(row["row"], row["status"], row.get("url"))`,
    ),
  },

  createBatchFromCsv: {
    curl: `# rows.csv: a header naming the variables, a line per render
url="$PLATEN_BASE_URL/v1/templates/$TEMPLATE_ID/batches/csv"
curl "$url?format=png" \\
  ${AUTH} \\
  -H 'Content-Type: text/csv' \\
  --data-binary @rows.csv`,
    typescript: typescript(
      ['Platen'],
      `import { readFile } from 'node:fs/promises';

${TS_TEMPLATE}

// headline\\nParis\\nRome: a header, then a line per render
const csv = await readFile('rows.csv', 'utf8');
const batch = await platen.batches.createFromCsv(
  templateId,
  csv,
  { format: 'png' },
);
const done = await platen.batches.wait(batch.id);
console.log(done.progress); // { done: 2, failed: 0, … }`,
    ),
    python: python(
      ['Platen'],
      `${PY_TEMPLATE}

# headline\\nParis\\nRome: a header, then a line per render
with open("rows.csv", encoding="utf-8") as f:
    csv_text = f.read()
batch = platen.batches.create_from_csv(
    template_id, csv_text, format="png"
)
done = platen.batches.wait(batch["id"])
print(done["progress"])  # {"done": 2, "failed": 0, ...}`,
    ),
  },

  getBatch: {
    curl: `curl "$PLATEN_BASE_URL/v1/batches/$BATCH_ID" \\
  ${AUTH}`,
    typescript: typescript(
      ['Platen'],
      `
// Reads GET /v1/batches/{id} until no row is pending
const batchId = 'bat_5Vn2Qx8KcRt4WmZp1LdHj7';
const batch = await platen.batches.wait(batchId);
console.log(batch.status, batch.progress);
for (const row of batch.rows)
  if (row.status === 'failed') console.log(row.row, row.error);`,
    ),
    python: python(
      ['Platen'],
      `
# Reads GET /v1/batches/{id} until no row is pending
batch = platen.batches.wait("bat_5Vn2Qx8KcRt4WmZp1LdHj7")
print(batch["status"], batch["progress"])
for row in batch["rows"]:
    if row["status"] == "failed":
        print(row["row"], row["error"])`,
    ),
  },

  listTemplates: {
    curl: `curl "$PLATEN_BASE_URL/v1/templates?limit=20" \\
  ${AUTH}`,
    typescript: typescript(
      ['Platen'],
      `
const page = await platen.templates.list();
for (const { id, name, revision } of page.items)
  console.log(id, name, revision);`,
    ),
    python: python(
      ['Platen'],
      `
page = platen.templates.list()
for t in page["items"]:
    print(t["id"], t["name"], t["revision"])`,
    ),
  },

  createTemplate: {
    curl: `# A blank page; or {"name", "document"} with a design
curl "$PLATEN_BASE_URL/v1/templates" \\
  ${AUTH} \\
  ${JSON_BODY} \\
  -d '{"name": "Promo card", "width": 1080, "height": 1080}'`,
    typescript: typescript(
      ['Platen'],
      `import { readFile } from 'node:fs/promises';

// A design document (docs/design-document.md)
const json = await readFile('card.json', 'utf8');
const document = JSON.parse(json);
const template = await platen.templates.create({
  name: 'Promo card',
  document,
});
console.log(template.id, template.revision);`,
    ),
    python: python(
      ['Platen'],
      `import json

# A design document (docs/design-document.md)
with open("card.json", encoding="utf-8") as f:
    document = json.load(f)
template = platen.templates.create(
    name="Promo card", document=document
)
print(template["id"], template["revision"])`,
    ),
  },

  getTemplate: {
    curl: `# The ETag header is the revision: If-Match it when saving
curl -i "$PLATEN_BASE_URL/v1/templates/$TEMPLATE_ID" \\
  ${AUTH}`,
    typescript: typescript(
      ['Platen'],
      `${TS_TEMPLATE}

const template = await platen.templates.get(templateId);
// template.document: the design (docs/design-document.md)
const { name, revision, pageCount } = template;
console.log(name, revision, pageCount);`,
    ),
    python: python(
      ['Platen'],
      `${PY_TEMPLATE}

template = platen.templates.get(template_id)
# template["document"]: the design (docs/design-document.md)
print(template["name"], template["revision"])
print(template["pageCount"], "pages")`,
    ),
  },

  saveTemplate: {
    curl: `# REVISION: the revision you read (its ETag). Saved since?
# 412 PRECONDITION_FAILED. draft.json: {"document": {…}}
curl -X PUT "$PLATEN_BASE_URL/v1/templates/$TEMPLATE_ID" \\
  ${AUTH} \\
  ${JSON_BODY} \\
  -H "If-Match: \\"$REVISION\\"" \\
  --data-binary @draft.json`,
    typescript: typescript(
      ['Platen', 'PlatenError'],
      `${TS_TEMPLATE}

const template = await platen.templates.get(templateId);
const { document, revision } = template;
// … change the document (docs/design-document.md) …
try {
  const saved = await platen.templates.save(
    templateId,
    { document },
    { ifMatch: revision },
  );
  console.log(saved.revision); // revision + 1
} catch (e) {
  if (!(e instanceof PlatenError)) throw e;
  if (e.code !== 'PRECONDITION_FAILED') throw e;
  // Someone saved it since: read it again, redo the change
  console.error('Changed meanwhile');
}`,
    ),
    python: python(
      ['Platen', 'PlatenError'],
      `${PY_TEMPLATE}

template = platen.templates.get(template_id)
document = template["document"]
# ... change the document (docs/design-document.md) ...
try:
    saved = platen.templates.save(
        template_id, document, if_match=template["revision"]
    )
    print(saved["revision"])  # revision + 1
except PlatenError as e:
    if e.code != "PRECONDITION_FAILED":
        raise
    # Someone saved it since: read it again, redo the change
    print("Changed meanwhile")`,
    ),
  },
};

/** The operations with samples (the reference's main operations). */
export const SAMPLED_OPERATIONS = Object.keys(samples);

/** The `x-codeSamples` of an operation, if it has samples. */
export function codeSamplesOf(operationId: string): CodeSample[] | undefined {
  const set = samples[operationId];
  return set ? codeSamples(set) : undefined;
}
