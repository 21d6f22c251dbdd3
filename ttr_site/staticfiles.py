"""Static files in production: hashed names, compressed copies (whitenoise), and the table
page's ES modules importing each other by their hashed names too (Django rewrites
``import ... from "./x.js"``), so every module can be cached for ever like the rest."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
