from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .forms import AdminLoginForm
from .models import ApiToken, Notification, User

# /admin/login/ shares the site log-in's failed-log-in limits and lock (see the form).
admin.site.login_form = AdminLoginForm


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("ttr", {"fields": ("display_name", "country", "bio", "language")}),
    )
    list_display = ("username", "email", "display_name", "country", "date_joined", "is_staff")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "text", "created_at", "read_at")
    raw_id_fields = ("user",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("prefix", "digest", "created_at", "last_used_at")
    raw_id_fields = ("user",)
