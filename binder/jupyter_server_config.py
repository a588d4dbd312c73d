# Binder (and any Jupyter server with jupyter-server-proxy): <server>/musteach/ is `musteach serve`, the lessons
# exactly as a class sees them (lesson bar, template, sources hidden, one kernel per visitor). binder/postBuild
# copies this file into Jupyter's config folder; open https://mybinder.org/v2/gh/<owner>/<repo>/HEAD?urlpath=musteach/
c = get_config()  # noqa: F821 - provided by Jupyter when it reads this file

c.ServerProxy.servers = {
    "musteach": {
        # {port} and {base_url} are filled in by jupyter-server-proxy; the tutor then serves under
        # <base_url>musteach/ (absolute_url keeps that prefix in the paths it receives)
        "command": ["musteach", "serve", "--host", "127.0.0.1", "--port", "{port}", "--base-url", "{base_url}musteach/",
                    "--pool-size", "0", "--max-kernels", "6"],
        "absolute_url": True,
        "timeout": 120,
        "launcher_entry": {"title": "musteach tutor", "enabled": True},
    }
}
