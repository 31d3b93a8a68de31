{{- define "gemma-server.name" -}}{{ .Chart.Name }}{{- end }}
