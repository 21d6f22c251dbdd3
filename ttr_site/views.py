"""Site-wide pages."""

from django.shortcuts import render


def home(request):
    return render(request, "pages/home.html")


def coming_soon(request, section):
    return render(request, "pages/section.html", {"section": section})
