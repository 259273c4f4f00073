# census in a container: one static binary on scratch, running as a
# non-root user, for every role (server, coordinator, worker, run, status).
#
#   docker build -t census --build-arg VERSION=$(git describe --always --dirty) .
#   docker run --rm census version
#
# Two stages. "build" compiles the binary and lays out the few files the
# image needs; "runtime" (the last stage) takes everything from "build" by
# COPY --from=build and nothing else. test/docker/run.sh builds this same
# runtime stage offline: it puts test/docker/Dockerfile.test (a FROM scratch
# stand-in for "build" holding a binary built on the host) in front of the
# lines from "FROM scratch AS runtime" to the end of this file. Keep the
# runtime stage taking only /census, /etc/ssl/certs/ca-certificates.crt,
# /rootfs/ and /data from "build".

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /census ./cmd/census \
 && /census version \
 && mkdir -p /rootfs/tmp /data \
 && chmod 1777 /rootfs/tmp

# ---- runtime: test/docker/run.sh builds from the next line to the end ----
FROM scratch AS runtime
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
# /tmp (1777, for S3 uploads buffered by the s3 store) and /data, owned by
# the runtime user, so that a named volume mounted on /data starts out
# writable by it (Docker copies the image's ownership into an empty volume).
COPY --from=build /rootfs/ /
COPY --from=build --chown=65532:65532 /data /data
COPY --from=build /census /census
USER 65532:65532
ENV TMPDIR=/tmp
WORKDIR /data
VOLUME ["/data"]
# 4222 NATS clients and 6222 NATS routes (census server), 9464 /metrics.
EXPOSE 4222 6222 9464
ENTRYPOINT ["/census"]
CMD ["--help"]
