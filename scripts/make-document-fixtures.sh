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
# The outputs are committed; run this after changing a source (CreationDate and ids are
# fixed so that the files do not change from run to run where the tools allow).
set -eu
cd "$(dirname "$0")/../test/fixtures/documents"
export SOURCE_DATE_EPOCH=1767225600
gs_pdf() { gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfwrite -dCompatibilityLevel=1.5 -sOutputFile="$1" "$2"; }
groff -ms -t -Tps -P-pletter report.ms > report.ps
gs_pdf report.pdf report.ps
groff -man -Tps -P-pletter tool.1 > manual.ps
gs_pdf manual.pdf manual.ps
rm -f report.ps manual.ps
gs -q -dBATCH -dNOPAUSE -dSAFER -sDEVICE=pdfimage8 -r60 -dFirstPage=1 -dLastPage=1 -sOutputFile=scanned.pdf report.pdf
qpdf --encrypt secret owner 256 -- manual.pdf encrypted.pdf
pandoc handbook.md -o handbook.docx
ls -l report.pdf manual.pdf scanned.pdf encrypted.pdf handbook.docx
