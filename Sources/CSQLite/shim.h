// The system's SQLite (libsqlite3-dev on Debian, the SDK's on Apple platforms), for BatonSQLite only.
#include <sqlite3.h>
