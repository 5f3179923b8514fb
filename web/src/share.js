// Share links: the program deflated into the URL's fragment (#p=...), so that nothing
// leaves the browser; `&run` after it (#p=...&run) runs it on opening.

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary)
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

async function through(stream, bytes) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

export async function encodeProgram(source) {
  const packed = await through(new CompressionStream("deflate-raw"), new TextEncoder().encode(source));
  return `p=${toBase64Url(packed)}`;
}

// {source, run} from a fragment such as #p=...&run; null when it holds no program.
export async function decodeProgram(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const p = params.get("p");
  if (!p) return null;
  try {
    const bytes = await through(new DecompressionStream("deflate-raw"), fromBase64Url(p));
    return { source: new TextDecoder().decode(bytes), run: params.has("run") };
  } catch {
    return { source: "# this share link is damaged: its program could not be read\n", run: false };
  }
}
