"""Template context for the site header: the unread notification count."""


def notifications(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": user.notifications.unread().count()}
