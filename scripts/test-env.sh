# Sourced by `make test-*`: where the tests find the infrastructure started by scripts/infra.
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-$(scripts/infra/postgres.sh up)}"
export TEST_KAFKA_BROKERS="${TEST_KAFKA_BROKERS:-$(scripts/infra/kafka.sh brokers single)}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || true)}"
