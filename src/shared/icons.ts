import {
  ArrowLeft,
  Bell,
  BookOpen,
  ChevronDown,
  Gamepad2,
  Heart,
  House,
  LogIn,
  LogOut,
  Menu,
  MessagesSquare,
  Monitor,
  Moon,
  PenLine,
  ScrollText,
  Sparkles,
  Sun,
  UserRound,
  X,
} from 'lucide';

/** One SVG element of an icon: tag and attributes (lucide's format). */
export type IconNode = [tag: string, attrs: Record<string, string | number | undefined>][];

/**
 * Every icon the site uses, bundled at build time (no runtime icon service). Names are what nav items
 * and components refer to as `iconName`.
 */
export const icons = {
  'arrow-left': ArrowLeft,
  bell: Bell,
  'book-open': BookOpen,
  'chevron-down': ChevronDown,
  gamepad: Gamepad2,
  heart: Heart,
  house: House,
  'log-in': LogIn,
  'log-out': LogOut,
  menu: Menu,
  messages: MessagesSquare,
  monitor: Monitor,
  moon: Moon,
  pen: PenLine,
  scroll: ScrollText,
  sparkles: Sparkles,
  sun: Sun,
  user: UserRound,
  x: X,
} satisfies Record<string, IconNode>;

export type IconName = keyof typeof icons;
