# SPDX-License-Identifier: MIT
# chase-report fleet: many machines' runs grouped by configuration and held against their peers
# (tools/report/fleet/); SQLite reads chase-collect's index. Included by tools/report/report.mk.

FLEET_SRCS := \
	tools/report/fleet/fleet_collect.c \
	tools/report/fleet/fleet_html.c \
	tools/report/fleet/fleet_judge.c \
	tools/report/fleet/fleet_main.c \
	tools/report/fleet/fleet_out.c \
	tools/report/fleet/fleet_ref.c \
	tools/report/fleet/fleet_run.c

REPORT_SRCS += $(FLEET_SRCS)
REPORT_LIBS += -lsqlite3

SCRIPT_TESTS += tests/report/test_fleet.sh
# report/test_fleet: the grouping and envelope rule on machines written in the test ('=': the
# analysis sources are listed after this fragment is included)
UNIT_TESTS += report/test_fleet
test_fleet_SRCS = tools/report/fleet/fleet_judge.c $(REPORT_LEVELS_SRCS)
