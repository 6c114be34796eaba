/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: cb3dd0bd19fd96fa22090444a300ce830d498869 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_fastcopy_stream, 0, 2, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_INFO(0, from)
	ZEND_ARG_INFO(0, to)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, length, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, offset, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_fastcopy_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(fastcopy_stream);
ZEND_FUNCTION(fastcopy_stats);


static const zend_function_entry ext_functions[] = {
	ZEND_FE(fastcopy_stream, arginfo_fastcopy_stream)
	ZEND_FE(fastcopy_stats, arginfo_fastcopy_stats)
	ZEND_FE_END
};
