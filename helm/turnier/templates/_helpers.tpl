{{/*
The roles, in the order their objects are rendered. Each has a top-level values key.
*/}}
{{- define "turnier.roles" -}}
gateway accounts catalog search decks scripts tournaments calculators worker
{{- end }}

{{/*
The gRPC service each role serves, by its fully qualified name: the readiness
probe asks grpc.health.v1 for it. The gateway speaks HTTP and has none.
*/}}
{{- define "turnier.grpcServices" -}}
accounts: turnier.accounts.v1.AccountService
catalog: turnier.catalog.v1.CatalogService
search: turnier.search.v1.SearchService
decks: turnier.decks.v1.DeckService
scripts: turnier.scripts.v1.ScriptService
tournaments: turnier.tournaments.v1.TournamentService
calculators: turnier.calculators.v1.CalculatorService
{{- end }}

{{- define "turnier.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified app name; the release name alone when it already contains the chart name.
*/}}
{{- define "turnier.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Name of one role's objects: (list $ "catalog") -> turnier-catalog.
*/}}
{{- define "turnier.roleName" -}}
{{- $root := index . 0 }}{{- $role := index . 1 -}}
{{- printf "%s-%s" (include "turnier.fullname" $root | trunc 50 | trimSuffix "-") $role }}
{{- end }}

{{- define "turnier.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Labels. Called with (list $ role); role may be "" for objects shared by all roles.
*/}}
{{- define "turnier.selectorLabels" -}}
{{- $root := index . 0 }}{{- $role := index . 1 -}}
app.kubernetes.io/name: {{ include "turnier.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
{{- if $role }}
app.kubernetes.io/component: {{ $role }}
{{- end }}
{{- end }}

{{- define "turnier.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ include "turnier.chart" $root }}
{{ include "turnier.selectorLabels" . }}
app.kubernetes.io/version: {{ include "turnier.imageTag" $root | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/part-of: turnier
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end }}

{{- define "turnier.imageTag" -}}
{{- .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "turnier.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (include "turnier.imageTag" .) }}
{{- end }}
{{- end }}

{{- define "turnier.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "turnier.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "turnier.configMapName" -}}
{{- printf "%s-config" (include "turnier.fullname" .) }}
{{- end }}

{{/*
The Secret the chart creates for the URLs it was given (database.url, redis.url).
*/}}
{{- define "turnier.secretName" -}}
{{- printf "%s-secrets" (include "turnier.fullname" .) }}
{{- end }}

{{- define "turnier.chartOwnsSecret" -}}
{{- if or (not .Values.database.existingSecret) (and .Values.redis.url (not .Values.redis.existingSecret)) (and .Values.webhooks.key (not .Values.webhooks.existingSecret)) (not .Values.internalKey.existingSecret) }}true{{ end }}
{{- end }}

{{/*
The data of the chart's Secret: the URLs that were given as values.
*/}}
{{- define "turnier.secretData" -}}
{{- if not .Values.database.existingSecret }}
DATABASE_URL: {{ .Values.database.url | b64enc | quote }}
{{- end }}
{{- if and .Values.redis.url (not .Values.redis.existingSecret) }}
REDIS_URL: {{ .Values.redis.url | b64enc | quote }}
{{- end }}
{{- if and .Values.webhooks.key (not .Values.webhooks.existingSecret) }}
TURNIER_WEBHOOK_KEY: {{ .Values.webhooks.key | b64enc | quote }}
{{- end }}
{{- if not .Values.internalKey.existingSecret }}
{{- /* Generated once, then kept: the Secret of the previous release holds it. */}}
{{- $previous := lookup "v1" "Secret" .Release.Namespace (include "turnier.secretName" .) }}
{{- $kept := "" }}
{{- if and $previous $previous.data }}{{ $kept = index $previous.data "TURNIER_INTERNAL_KEY" | default "" }}{{ end }}
TURNIER_INTERNAL_KEY: {{ if .Values.internalKey.key }}{{ .Values.internalKey.key | b64enc | quote }}{{ else if $kept }}{{ $kept | quote }}{{ else }}{{ randAlphaNum 64 | b64enc | quote }}{{ end }}
{{- end }}
{{- end }}

{{/*
DATABASE_URL (required) and REDIS_URL (when configured) as env entries.
`secretName` overrides the chart's own Secret (the migration hook uses its own).
*/}}
{{- define "turnier.secretEnv" -}}
{{- $root := index . 0 }}{{- $ownSecret := index . 1 -}}
{{- if and (not $root.Values.database.existingSecret) (not $root.Values.database.url) }}
{{- fail "set database.url or database.existingSecret: Turnier needs PostgreSQL" }}
{{- end -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      {{- if $root.Values.database.existingSecret }}
      name: {{ $root.Values.database.existingSecret }}
      key: {{ $root.Values.database.existingSecretKey }}
      {{- else }}
      name: {{ $ownSecret }}
      key: DATABASE_URL
      {{- end }}
{{- if or $root.Values.redis.existingSecret $root.Values.redis.url }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      {{- if $root.Values.redis.existingSecret }}
      name: {{ $root.Values.redis.existingSecret }}
      key: {{ $root.Values.redis.existingSecretKey }}
      {{- else }}
      name: {{ $ownSecret }}
      key: REDIS_URL
      {{- end }}
{{- end }}
{{- if or $root.Values.webhooks.existingSecret $root.Values.webhooks.key }}
- name: TURNIER_WEBHOOK_KEY
  valueFrom:
    secretKeyRef:
      {{- if $root.Values.webhooks.existingSecret }}
      name: {{ $root.Values.webhooks.existingSecret }}
      key: {{ $root.Values.webhooks.existingSecretKey }}
      {{- else }}
      name: {{ $ownSecret }}
      key: TURNIER_WEBHOOK_KEY
      {{- end }}
{{- end }}
- name: TURNIER_INTERNAL_KEY
  valueFrom:
    secretKeyRef:
      {{- if $root.Values.internalKey.existingSecret }}
      name: {{ $root.Values.internalKey.existingSecret }}
      key: {{ $root.Values.internalKey.existingSecretKey }}
      {{- else }}
      name: {{ $ownSecret }}
      key: TURNIER_INTERNAL_KEY
      {{- end }}
      optional: true # the migration hook's own Secret has none, and needs none
{{- end }}

{{/*
The shared environment (the ConfigMap's data), as YAML. The migration Job, which
runs before the ConfigMap exists on a first install, gets the same values inline.
extraEnv comes last and wins over the chart's own keys.
*/}}
{{- define "turnier.configData" -}}
{{- $fullname := include "turnier.fullname" . | trunc 50 | trimSuffix "-" -}}
{{- $c := .Values.config -}}
{{- $env := dict
  "RUST_LOG" ($c.rustLog | toString)
  "LOG_FORMAT" ($c.logFormat | toString)
  "TURNIER_HTTP_ADDR" (printf "0.0.0.0:%d" (.Values.ports.http | int64))
  "TURNIER_GRPC_ADDR" (printf "0.0.0.0:%d" (.Values.ports.grpc | int64))
  "TURNIER_METRICS_ADDR" (printf "0.0.0.0:%d" (.Values.ports.metrics | int64))
  "DB_MAX_CONNECTIONS" ($c.dbMaxConnections | int64 | toString)
  "TURNIER_BODY_LIMIT_BYTES" ($c.bodyLimitBytes | int64 | toString)
  "TURNIER_REQUEST_TIMEOUT_SECS" ($c.requestTimeoutSecs | int64 | toString)
  "TURNIER_SHUTDOWN_DELAY_SECS" ($c.shutdownDelaySecs | int64 | toString)
  "TURNIER_SHUTDOWN_GRACE_SECS" ($c.shutdownGraceSecs | int64 | toString)
  "TURNIER_MIGRATE_ON_START" (ternary "false" "true" (.Values.migration.enabled | default false))
  "TURNIER_SCRIPT_COMPILE_CACHE" "/var/lib/turnier/wasmtime"
  "TURNIER_SESSION_DAYS" ($c.sessionDays | int64 | toString)
  "TURNIER_WEBHOOK_ALLOW_PRIVATE" (ternary "true" "false" (.Values.webhooks.allowPrivate | default false))
-}}
{{- range $role := splitList " " (include "turnier.roles" .) }}
{{- if not (has $role (list "gateway" "worker")) }}
{{- $_ := set $env (printf "TURNIER_%s_URL" (upper $role)) (printf "http://%s-%s:%d" $fullname $role ($.Values.ports.grpc | int64)) }}
{{- end }}
{{- end }}
{{- with $c.corsOrigins }}{{ $_ := set $env "TURNIER_CORS_ORIGINS" (toString .) }}{{ end }}
{{- with $c.trustedProxies }}{{ $_ := set $env "TURNIER_TRUSTED_PROXIES" (toString .) }}{{ end }}
{{- with .Values.otel.endpoint }}{{ $_ := set $env "OTEL_EXPORTER_OTLP_ENDPOINT" (toString .) }}{{ end }}
{{- range $k, $v := .Values.extraEnv }}{{ $_ := set $env $k (toString $v) }}{{ end }}
{{- toYaml $env }}
{{- end }}

{{/*
Pod-level scratch volumes: the root filesystem is read-only.
*/}}
{{- define "turnier.scratchVolumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.scratchSizeLimit }}
- name: data
  emptyDir:
    sizeLimit: {{ .Values.scratchSizeLimit }}
{{- end }}

{{- define "turnier.scratchMounts" -}}
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: /var/lib/turnier
{{- end }}
