// SPDX-License-Identifier: GPL-2.0
/*
 * Hidden tests that leave the machine changed: CPU 3 offline, as a lab
 * whose clean-up broke (or a kernel that cannot bring a CPU back) would.
 * make test grades lab 1 with them and lab 2 after it: the init must end
 * the boot after lab 1, lab 1's result say what it left, and lab 2 be
 * graded in a boot of its own, with full marks on the reference.
 */
#include "schedlab.h"

START_TEST(test_cpu_left_offline)
{
	ck_assert_int_eq(sl_write_str("/sys/devices/system/cpu/cpu3/online", "0"), 0);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab01-leaves-changed", NULL, NULL);

	sl_add_test(s, test_cpu_left_offline);
	return s;
}
