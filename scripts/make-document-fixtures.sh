#!/bin/sh
# Remakes the document fixtures in test/fixtures/documents/ from their sources there,
# with real tools (groff, ghostscript, qpdf, pandoc):
#   report.pdf     groff -ms: two columns, running headers and footers, a table (tbl),
#                  hyphenated line ends, numbered headings; three pages
#   manual.pdf     groff -man: a manual page, its header and footer on every page
#   scanned.pdf    page 1 of report.pdf rendered to an image and wrapped back into a
#                  PDF with no text layer (ghostscript's pdfimage8 device)
#   encrypted.pdf  manual.pdf encrypted with qpdf (user password "secret", AES-256)
#   handbook.docx  pandoc from handbook.md: headings, lists and a table
# and, in layout/, reading-order fixtures (pdflatex from TeX Live, groff):
#   ice-ieee.pdf, ice-revtex.pdf           one two-column paper (ice-body.tex) in IEEEtran
#                                          (journal, compsoc) and REVTeX 4.2 (aps)
#   orchard-article.pdf, orchard-elsarticle.pdf
#                                          another (orchard-body.tex) in article (twocolumn,
#                                          \twocolumn[...] front matter) and elsarticle (5p,
#                                          a full-width table*)
#   ferry.pdf      groff -ms: full-width title and abstract above two columns, a table
#   manuals.pdf    four manuals in one PDF (article, fancyhdr): each its own running
#                  header and footer, bold indented subsection headings
# Every one has a full-width title (and abstract) on page 1, section headings and a table.
# Needs texlive-latex-base, -latex-recommended, -latex-extra or -publishers (IEEEtran,
# revtex4-2, elsarticle) and -fonts-recommended.
# `make-document-fixtures.sh layout` remakes only the layout/ fixtures. The outputs are committed; run this after changing a source (CreationDate and ids are
# fixed so that the files do not change from run to run where the tools allow).
set -eu
cd "$(dirname "$0")/../test/fixtures/documents"
export SOURCE_DATE_EPOCH=1767225600
gs_pdf() { gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfwrite -dCompatibilityLevel=1.5 -sOutputFile="$1" "$2"; }
if [ "${1:-}" != layout ]; then
groff -ms -t -Tps -P-pletter report.ms > report.ps
gs_pdf report.pdf report.ps
groff -man -Tps -P-pletter tool.1 > manual.ps
gs_pdf manual.pdf manual.ps
rm -f report.ps manual.ps
gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfimage8 -r60 -dFirstPage=1 -dLastPage=1 -sOutputFile=scanned.pdf report.pdf
qpdf --encrypt secret owner 256 -- manual.pdf encrypted.pdf
pandoc handbook.md -o handbook.docx
ls -l report.pdf manual.pdf scanned.pdf encrypted.pdf handbook.docx
fi
cd layout
export FORCE_SOURCE_DATE=1
for tex in ice-ieee ice-revtex orchard-article orchard-elsarticle manuals; do
  # twice: the second run resolves cross-references
  pdflatex -interaction=batchmode "$tex.tex" > /dev/null
  pdflatex -interaction=batchmode "$tex.tex" > /dev/null
  rm -f "$tex.aux" "$tex.log" "$tex.out" "${tex}Notes.bib"
done
groff -ms -t -Tps -P-pletter ferry.ms > ferry.ps
gs_pdf ferry.pdf ferry.ps
rm -f ferry.ps
ls -l ./*.pdf
