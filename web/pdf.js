// The PDF view (pdf.html): renders each page with pdf.js and draws the boxes of the
// chunks chunkwise/pdf makes of it (RecursiveChunker, chunkSize tokens). Box coordinates
// are PDF points from the page's top-left corner, so a page rendered at `scale` takes
// them multiplied by `scale`.
import * as cw from '/bundle/inline/index.js';
import { extractPdf, PdfChunker } from '/bundle/inline/pdf.js';
import * as pdfjs from '/pdfjs/pdf.mjs';

pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/pdf.worker.mjs';
const SCALE = 1.25;
const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];
const status = document.getElementById('status');
const pagesEl = document.getElementById('pages');
const chunkEl = document.getElementById('chunk');
let bytes;

/** Renders the PDF's pages and the chunks' boxes over them; returns the chunks. */
async function show() {
  status.textContent = 'chunking…';
  const doc = await extractPdf(bytes, { pdfjs });
  const size = Number(document.getElementById('size').value) || 200;
  const chunks = await new PdfChunker(new cw.RecursiveChunker({ chunkSize: size, chunkOverlap: 0 })).chunk(doc);
  const pdf = await pdfjs.getDocument({ data: bytes.slice() }).promise;
  pagesEl.replaceChildren();
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const viewport = page.getViewport({ scale: SCALE });
    const holder = document.createElement('div');
    holder.className = 'page';
    holder.dataset.page = String(n);
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    holder.append(canvas);
    pagesEl.append(holder);
    await page.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
    for (const c of chunks) {
      for (const b of c.metadata.boxes) {
        if (b.page !== n) continue;
        const el = document.createElement('div');
        el.className = 'box';
        el.dataset.chunk = String(c.index);
        Object.assign(el.style, {
          left: `${b.x0 * SCALE}px`,
          top: `${b.y0 * SCALE}px`,
          width: `${(b.x1 - b.x0) * SCALE}px`,
          height: `${(b.y1 - b.y0) * SCALE}px`,
          borderColor: COLORS[c.index % COLORS.length],
        });
        el.title = `chunk ${c.index} · pages ${c.metadata.pages.first}–${c.metadata.pages.last} · ${c.metadata.headingPath.join(' › ')}`;
        el.addEventListener('mouseenter', () => {
          for (const o of document.querySelectorAll('.box.on')) o.classList.remove('on');
          for (const o of document.querySelectorAll(`.box[data-chunk="${c.index}"]`)) o.classList.add('on');
          chunkEl.textContent = `chunk ${c.index} [${c.start}, ${c.end}) · ${c.metadata.headingPath.join(' › ')}\n\n${c.embedText ?? c.text}`;
        });
        holder.append(el);
      }
    }
  }
  await pdf.destroy();
  status.textContent = `${chunks.length} chunks on ${doc.pages.length} pages; ${doc.furniture.length} header/footer lines left out of embedText`;
  return chunks;
}

async function open(data) {
  bytes = data;
  try {
    window.chunks = await show();
  } catch (error) {
    status.textContent = String(error?.message ?? error);
  }
}

document.getElementById('file').addEventListener('change', async (e) => {
  const f = e.target.files?.[0];
  if (f) await open(new Uint8Array(await f.arrayBuffer()));
});
document.getElementById('size').addEventListener('change', () => bytes && open(bytes));
await cw.initKernels?.();
await cw.loadTokenizer('cl100k_base');
const url = new URLSearchParams(location.search).get('pdf');
if (url) await open(new Uint8Array(await (await fetch(url)).arrayBuffer()));
else status.textContent = 'open a PDF';
