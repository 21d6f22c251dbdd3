"""Shared pieces of the public REST API (``/api/v1/``): the one error format and its
exception handler, pagination, throttles and the schema hooks. The endpoints themselves live
in each app's ``apis.py``; ``ttr_site/api_urls.py`` mounts them."""
