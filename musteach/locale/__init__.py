"""The gettext catalogs: ``<lang>/LC_MESSAGES/<domain>.po`` (edited by translators) and ``.mo`` (compiled).

Build and check them with ``python -m musteach.locale.catalogs``; :mod:`musteach.i18n` reads them.
"""
