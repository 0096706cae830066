/** The pages people's one-time links open: shared by the routes that serve them and those that issue them. */
export const SETUP_PATH = '/console/setup';
/** `/console/reset/<token>`: a password-reset link (the token in the path, redacted in logs). */
export const PASSWORD_RESET_PATH = '/console/reset';
