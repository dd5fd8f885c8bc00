# MCTS Lab for a classroom: N Streamlit replicas behind nginx with sticky sessions, in one
# container, started by deploy/run_replicas.py (see docs/deploy.md).
#
#   docker build -t mcts-lab .
#   docker run --rm -p 8080:8080 -e REPLICAS=2 mcts-lab      # then open http://HOST:8080/
#
# One container holds nginx and the replicas because the stickiness lives between them: a
# single-replica container would need an outside proxy with sticky sessions to scale out.
# REPLICAS: about one per core the container may use.
FROM python:3.11-slim-bookworm

# nginx: the sticky proxy; tini: PID 1 (passes docker stop's SIGTERM on and reaps orphans);
# graphviz: the Text tab's server-side drawing (the main tree draws in the browser without it)
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx tini graphviz \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/mcts-lab
# the packages first, so a change in app/ or deploy/ does not reinstall the dependencies
COPY pyproject.toml README.md LICENSE ./
COPY mcts_core mcts_core
COPY games games
COPY mcts_lab mcts_lab
RUN pip install --no-cache-dir --disable-pip-version-check --root-user-action=ignore .
COPY .streamlit .streamlit
COPY app app
COPY deploy deploy

# nginx and the replicas run as an ordinary user: every file nginx writes is in the run
# directory under /tmp (deploy/nginx.conf.template), and 8080 needs no privilege
RUN useradd --create-home --uid 10001 lab
USER lab
ENV REPLICAS=2 PYTHONUNBUFFERED=1
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8080/_stcore/health', timeout=4)"]
ENTRYPOINT ["tini", "--", "python", "deploy/run_replicas.py", "--listen", "0.0.0.0", "--port", "8080"]
