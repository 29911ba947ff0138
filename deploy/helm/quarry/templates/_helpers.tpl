{{/* Names */}}
{{- define "quarry.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "quarry.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Standard labels; call with (dict "root" $ "component" "gateway") (component optional). */}}
{{- define "quarry.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{ include "quarry.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Values.image.tag | default .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: quarry
{{- end -}}

{{- define "quarry.selectorLabels" -}}
app.kubernetes.io/name: {{ include "quarry.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- if .component }}
app.kubernetes.io/component: {{ .component }}
{{- end }}
{{- end -}}

{{/*
The services of the platform, one Deployment each. `app` is the image and SERVICE_NAME, `values`
the key in values.yaml, `api` whether it serves the public API (Service port 80, ingress).
*/}}
{{- define "quarry.components" -}}
gateway: { app: gateway, values: gateway, api: true }
scrapeWorker: { app: scrape-worker, values: scrapeWorker, api: false }
docParser: { app: doc-parser, values: docParser, api: false }
agentOrchestrator: { app: agent-orchestrator, values: agentOrchestrator, api: false }
{{- end -}}

{{/* Image of an app; call with (dict "root" $ "app" "gateway" "override" .Values.gateway.image). */}}
{{- define "quarry.image" -}}
{{- $override := .override | default dict -}}
{{- $repository := $override.repository | default (printf "%s/%s/%s" .root.Values.image.registry .root.Values.image.repository .app | trimPrefix "/") -}}
{{- $tag := $override.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- printf "%s:%s" $repository $tag -}}
{{- end -}}

{{- define "quarry.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "quarry.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Secret holding DATABASE_URL, and its key. */}}
{{- define "quarry.databaseSecretName" -}}
{{- if and (not .Values.postgresql.bundled.enabled) .Values.postgresql.external.existingSecret -}}
{{- .Values.postgresql.external.existingSecret -}}
{{- else -}}
{{- printf "%s-database" (include "quarry.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "quarry.databaseSecretKey" -}}
{{- if and (not .Values.postgresql.bundled.enabled) .Values.postgresql.external.existingSecret -}}
{{- .Values.postgresql.external.existingSecretKey -}}
{{- else -}}
DATABASE_URL
{{- end -}}
{{- end -}}

{{/* Password of the bundled PostgreSQL: the value, else the one already in the cluster, else a new one. */}}
{{- define "quarry.postgresqlPassword" -}}
{{- if .Values.postgresql.bundled.password -}}
{{- .Values.postgresql.bundled.password -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (printf "%s-database" (include "quarry.fullname" .)) -}}
{{- if and $existing $existing.data (index $existing.data "POSTGRES_PASSWORD") -}}
{{- index $existing.data "POSTGRES_PASSWORD" | b64dec -}}
{{- else -}}
{{- randAlphaNum 32 -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "quarry.databaseUrl" -}}
{{- if .Values.postgresql.bundled.enabled -}}
{{- $pg := .Values.postgresql.bundled -}}
{{- printf "postgresql://%s:%s@%s-postgresql:5432/%s" $pg.username (include "quarry.postgresqlPassword" . | urlquery) (include "quarry.fullname" .) $pg.database -}}
{{- else -}}
{{- .Values.postgresql.external.url -}}
{{- end -}}
{{- end -}}

{{- define "quarry.kafkaBrokers" -}}
{{- if .Values.kafka.bundled.enabled -}}
{{- printf "%s-kafka:9092" (include "quarry.fullname" .) -}}
{{- else -}}
{{- join "," .Values.kafka.external.brokers -}}
{{- end -}}
{{- end -}}

{{- define "quarry.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl -}}
{{- else if .Values.ingress.enabled -}}
{{- printf "%s://%s" (ternary "https" "http" (not (empty .Values.ingress.tlsSecretName))) .Values.ingress.host -}}
{{- else -}}
{{- printf "http://%s-gateway.%s.svc:%d" (include "quarry.fullname" .) .Release.Namespace (int .Values.gateway.service.port) -}}
{{- end -}}
{{- end -}}

{{/* A random secret kept across upgrades: call with (dict "root" $ "key" "BLOB_SIGNING_SECRET"). */}}
{{- define "quarry.keptSecret" -}}
{{- $existing := lookup "v1" "Secret" .root.Release.Namespace (printf "%s-env" (include "quarry.fullname" .root)) -}}
{{- if and $existing $existing.data (index $existing.data .key) -}}
{{- index $existing.data .key | b64dec -}}
{{- else -}}
{{- randAlphaNum 48 -}}
{{- end -}}
{{- end -}}

{{/*
Environment the chart manages for a container (see README "Set by the chart"); call with
(dict "root" $ "app" "gateway"). Everything else comes from the ConfigMap and Secret (envFrom).
*/}}
{{- define "quarry.managedEnv" -}}
- name: SERVICE_NAME
  value: {{ .app | quote }}
- name: HOST
  value: "0.0.0.0"
- name: PORT
  value: "3002"
- name: PUBLIC_URL
  value: {{ include "quarry.publicUrl" .root | quote }}
- name: DATA_DIR
  value: /data
- name: BLOB_DIR
  value: /var/lib/quarry/blobs
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "quarry.databaseSecretName" .root }}
      key: {{ include "quarry.databaseSecretKey" .root }}
- name: DATABASE_MIGRATE_ON_START
  value: {{ ternary "false" "true" (and .root.Values.migrations.enabled (not .root.Values.postgresql.bundled.enabled)) | quote }}
- name: BUS_DRIVER
  value: kafka
- name: KAFKA_BROKERS
  value: {{ include "quarry.kafkaBrokers" .root | quote }}
- name: ADMIN_HEALTH_URLS
  value: {{ include "quarry.healthUrls" .root | quote }}
{{- end -}}

{{/* Names of the variables quarry.managedEnv sets (components' `env` may not override them). */}}
{{- define "quarry.managedEnvNames" -}}
SERVICE_NAME HOST PORT PUBLIC_URL DATA_DIR BLOB_DIR DATABASE_URL DATABASE_MIGRATE_ON_START BUS_DRIVER KAFKA_BROKERS ADMIN_HEALTH_URLS
{{- end -}}

{{/* The other enabled components' Services, as the gateway's operator view reads their /readyz (name=url,…). */}}
{{- define "quarry.healthUrls" -}}
{{- $fullname := include "quarry.fullname" . -}}
{{- $urls := list -}}
{{- range $key, $component := (include "quarry.components" . | fromYaml) -}}
{{- if and (not $component.api) (index $.Values $component.values).enabled -}}
{{- $urls = append $urls (printf "%s=http://%s-%s:3002" $component.app $fullname $component.app) -}}
{{- end -}}
{{- end -}}
{{- join "," $urls -}}
{{- end -}}

{{/* Checks of combinations the schema cannot express. */}}
{{- define "quarry.validate" -}}
{{- if and (not .Values.postgresql.bundled.enabled) (not .Values.postgresql.external.url) (not .Values.postgresql.external.existingSecret) -}}
{{- fail "postgresql: enable postgresql.bundled or set postgresql.external.url / postgresql.external.existingSecret" -}}
{{- end -}}
{{- if and .Values.postgresql.bundled.enabled (or .Values.postgresql.external.url .Values.postgresql.external.existingSecret) -}}
{{- fail "postgresql: postgresql.external.* is set while postgresql.bundled.enabled=true; disable one" -}}
{{- end -}}
{{- if and (not .Values.kafka.bundled.enabled) (empty .Values.kafka.external.brokers) -}}
{{- fail "kafka: enable kafka.bundled or set kafka.external.brokers" -}}
{{- end -}}
{{- if and .Values.kafka.bundled.enabled (not (empty .Values.kafka.external.brokers)) -}}
{{- fail "kafka: kafka.external.brokers is set while kafka.bundled.enabled=true; disable one" -}}
{{- end -}}
{{- $managed := splitList " " (include "quarry.managedEnvNames" .) -}}
{{- range $key, $component := (include "quarry.components" . | fromYaml) -}}
{{- $values := index $.Values $component.values -}}
{{- range $name, $_ := ($values.env | default dict) -}}
{{- if has $name $managed -}}
{{- fail (printf "%s.env.%s: the chart sets %s itself (see README, Set by the chart)" $key $name $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
