"""Every list of the API is paginated by page number, with a bounded page size."""

from django.conf import settings
from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """``?page=2&page_size=20``: ``{"count", "next", "previous", "results"}``; a page past
    the end is a 404 ``not_found``."""

    page_size_query_param = "page_size"

    @property
    def max_page_size(self) -> int:
        return settings.API_MAX_PAGE_SIZE
