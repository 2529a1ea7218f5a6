// SPDX-License-Identifier: GPL-2.0
/* setup-check.c - the smallest Check program: setup-host.sh builds it to
 * prove that the arm64 cross compiler, C library and libcheck work.
 */
#include <check.h>
#include <stdlib.h>

START_TEST(test_nothing)
{
	ck_assert_int_eq(1, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("setup");
	TCase *tc = tcase_create("setup");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_nothing);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
